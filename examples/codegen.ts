// GraphQL Code Generator's configuration for the example client: the result and variables types
// of examples/*.graphql, checked against the repository's schema.graphql, into generated/
// (`npm run examples:codegen`; test/examples/codegen.test.ts fails when the checked-in output is
// not what this produces).
import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** where the generated module goes (the client imports ./generated/graphql.js) */
export const GENERATED_DIR = here('./generated/');

const config: CodegenConfig = {
  schema: here('../schema.graphql'),
  documents: here('./*.graphql'),
  // a document the schema does not validate fails the generation
  ignoreNoDocuments: false,
  generates: {
    [GENERATED_DIR]: {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        // documents as strings with their types: the client needs no GraphQL library to send them
        documentMode: 'string',
        // the scalars as the server sends them (schema.graphql describes each)
        strictScalars: true,
        scalars: { Amount: 'string', DateTime: 'string', Int64: 'string', JSON: 'unknown' },
        enumsAsTypes: true,
        useTypeImports: true,
      },
    },
  },
  // ESM imports with their .js extension (the project's NodeNext resolution)
  emitLegacyCommonJSImports: false,
};

export default config;
