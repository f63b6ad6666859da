// Reading path and query parameters; a bad one is a 400 problem naming it.
import { ProblemError, problems } from './problem.js';

export function uint32Param(name: string, text: string | undefined): number {
  if (text === undefined || !/^\d{1,10}$/.test(text) || Number(text) > 0xffffffff) {
    throw new ProblemError(problems.badRequest(name, `${name} must be a whole number between 0 and 4294967295`));
  }
  return Number(text);
}
