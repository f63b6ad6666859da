// The market library's parsers throw InvalidValueError naming the REST query field; to clients
// that is a bad_request problem with extras.invalid_field (in GraphQL: extensions.code).
import { InvalidValueError } from '../../stellar/index.js';
import { ProblemError, problems } from '../rest/problem.js';

export function marketArgs<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof InvalidValueError) throw new ProblemError(problems.badRequest(error.field ?? 'query', error.message));
    throw error;
  }
}
