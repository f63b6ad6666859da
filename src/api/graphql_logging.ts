// yoga's logger and error masking over pino. yoga logs, at error level, every error its maskError
// replaced, which would make each client mistake (a bad cursor, an unknown account id) a server
// error in the logs. Here the masking (problems.ts's maskGraphQLError) logs what it sees, a
// client's error at debug and an unexpected one at error with its stack, and yoga's own line about
// an error the masking has seen is left out. Syntax and validation errors never reach the error
// level: they are coded already, so yoga answers them as they are.
import type { YogaLogger } from 'graphql-yoga';
import type { Logger } from '../logger.js';
import { maskGraphQLError } from './problems.js';

export interface GraphQLLogging {
  logging: YogaLogger;
  maskError: (error: unknown) => Error;
}

export function graphqlLogging(logger: Logger): GraphQLLogging {
  const masked = new WeakSet<object>();
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]): void => {
      const [first] = args;
      if (args.length === 1 && first instanceof Error) {
        if (!masked.has(first)) logger[level]({ err: first }, first.message);
        return;
      }
      logger[level](args.map(String).join(' '));
    };
  return {
    logging: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') },
    maskError(error) {
      if (typeof error === 'object' && error !== null) masked.add(error);
      return maskGraphQLError(error, logger);
    },
  };
}
