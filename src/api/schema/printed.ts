// The schema as SDL: schema.graphql at the root of the project is this text (`npm run schema`
// writes it; a test fails when it is stale).
import { printSchema } from 'graphql';
import { schema } from './schema.js';

export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}
