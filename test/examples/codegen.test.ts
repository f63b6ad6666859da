// The example client's types are what GraphQL Code Generator makes of examples/*.graphql and the
// checked-in schema.graphql (itself kept current by test/api/schema_printed.test.ts), and its
// documents are valid against that schema.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import config, { GENERATED_DIR } from '../../examples/codegen.js';

const examples = new URL('../../examples/', import.meta.url);

describe('examples/generated', () => {
  it('is what `npm run examples:codegen` generates (run it after changing a document or the schema)', async () => {
    const outputs = (await generate(config, false)) as { filename: string; content: string }[];
    const generated = Object.fromEntries(outputs.map((output) => [relative(GENERATED_DIR, output.filename), output.content]));
    const checkedIn = Object.fromEntries(readdirSync(GENERATED_DIR).map((name) => [name, readFileSync(join(GENERATED_DIR, name), 'utf8')]));
    expect(Object.keys(checkedIn).sort()).toEqual(Object.keys(generated).sort());
    for (const [name, content] of Object.entries(generated)) expect(checkedIn[name], name).toBe(content);
  }, 60_000);

  it('holds documents that are valid against schema.graphql', () => {
    const schema = buildSchema(readFileSync(new URL('../schema.graphql', examples), 'utf8'));
    const files = readdirSync(examples).filter((name) => name.endsWith('.graphql'));
    expect(files.sort()).toEqual(['account_view.graphql', 'payments.graphql']);
    // one document: the subscription uses the view's fragment
    const document = parse(files.map((name) => readFileSync(new URL(name, examples), 'utf8')).join('\n'));
    expect(validate(schema, document)).toEqual([]);
  });
});
