// The explorer's GraphQL documents (web/explorer/queries/) against the published schema
// (schema.graphql, itself held to the server's by test/api/schema_printed.test.ts): a schema change
// that breaks a view of the explorer fails here. Each operation must also pass the server's limits
// as configured by default (depth, aliases, root fields, tokens, cost), or the page would be refused.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { graphqlLimitsOf, operationCost, parseWithTokenLimit, queryLimitRules } from '../../src/api/graphql_limits.js';
import { schema as served } from '../../src/api/schema/index.js';

const QUERIES = fileURLToPath(new URL('../../web/explorer/queries/', import.meta.url));
const published = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));
const limits = graphqlLimitsOf(defaultConfig());
const files = readdirSync(QUERIES).filter((name) => name.endsWith('.graphql'));

describe('the explorer documents', () => {
  it('are there', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    const text = readFileSync(join(QUERIES, file), 'utf8');
    it(`${file} is valid against schema.graphql`, () => {
      expect(validate(published, parse(text)).map((error) => error.message)).toEqual([]);
    });

    it(`${file} is within the server's default limits`, () => {
      // each is sent whole, with its operation's name
      const document = parseWithTokenLimit(limits.maxTokens)(text);
      expect(validate(served, document, queryLimitRules(limits)).map((error) => error.message)).toEqual([]);
      const operations = document.definitions.filter((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION);
      expect(operations.every((operation) => operation.name)).toBe(true);
      for (const operation of operations) {
        const { complexity, errors } = operationCost({
          schema: served,
          document,
          operationName: operation.name!.value,
          contextValue: {},
          maxComplexity: limits.maxComplexity,
        });
        expect(errors, `${operation.name!.value} costs ${complexity}`).toEqual([]);
      }
    });
  }
});
