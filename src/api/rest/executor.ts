// A route's document compiled into a function (graphql-jit) rather than interpreted by graphql-js
// on every request: a page of 200 operations is ~3,600 fields, and graphql-js walks the document,
// the schema and the argument nodes again for each of them. The resolvers, resolveType/isTypeOf,
// the scalars' serialize and the context are the schema's own, so the result is graphql-js's
// (test/api/rest/executor.db.test.ts compares the two route by route).
import { execute, print, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/** runs one precompiled document with a request's context and variables */
export type DocumentExecutor = (contextValue: unknown, variables: Record<string, unknown>) => Promise<ExecutionResult>;

export type CompileDocument = (schema: GraphQLSchema, document: DocumentNode) => DocumentExecutor;

// Compiling every route takes ~1.5 s (the operation and effect documents carry a fragment per
// type), so a document is compiled at its first request, once per process: every server made
// on the same schema (the tests make many) shares it.
const compiledDocuments = new WeakMap<GraphQLSchema, Map<string, CompiledQuery>>();

function compiledQuery(schema: GraphQLSchema, document: DocumentNode): CompiledQuery {
  let bySource = compiledDocuments.get(schema);
  if (!bySource) compiledDocuments.set(schema, (bySource = new Map()));
  const source = print(document);
  let compiled = bySource.get(source);
  if (!compiled) {
    const result = compileQuery(schema, document);
    if (!isCompiledQuery(result)) {
      throw new Error(`document does not compile: ${(result.errors ?? []).map((error) => error.message).join('; ')}`);
    }
    compiled = result;
    bySource.set(source, compiled);
  }
  return compiled;
}

export const compileDocument: CompileDocument = (schema, document) => {
  let compiled: CompiledQuery | undefined;
  return async (contextValue, variables) => {
    compiled ??= compiledQuery(schema, document);
    const result = await compiled.query(undefined, contextValue, variables);
    // No data: the variables were refused before anything ran. graphql-jit words that differently
    // (and drops a scalar's own message, e.g. Int64's), so graphql-js gives its answer.
    if (!('data' in result)) return execute({ schema, document, contextValue, variableValues: variables });
    return result;
  };
};

/** graphql-js's own execution of the same document: the reference the compiled one is held to */
export const interpretDocument: CompileDocument = (schema, document) => (contextValue, variables) =>
  Promise.resolve(execute({ schema, document, contextValue, variableValues: variables }));
