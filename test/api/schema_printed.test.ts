// schema.graphql is what clients read; it must be the schema the server runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../src/api/schema/printed.js';

describe('schema.graphql', () => {
  it('is the printed schema (run `npm run schema` after changing a type)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printedSchema());
  });
});
