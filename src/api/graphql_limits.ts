// What one GraphQL request may ask, checked before anything runs: its tokens while it is parsed,
// then (validation rules, cached with the document) its depth, aliases, root fields and
// directives, then, with its variables, its cost (@pothos/plugin-complexity over the costs of
// schema/complexity.ts). Each refusal is a GraphQL error coded GRAPHQL_*_LIMIT, answered as yoga
// answers a validation error. The body's size is yoga's maxRequestBodySize (413) and, for the
// graphql-sse endpoint that reads its own body, graphql_sse.ts.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { MaxTokensParserWLexer } from '@escape.tech/graphql-armor-max-tokens';
import { createComplexityRule } from '@pothos/plugin-complexity';
import {
  GraphQLError,
  Kind,
  validate,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ParseOptions,
  type SelectionSetNode,
  type Source,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config.js';

export interface GraphQLLimits {
  /** nesting of fields (fragments add none) */
  maxDepth: number;
  /** aliased fields in an operation, fragments included */
  maxAliases: number;
  /** fields selected at the root of an operation */
  maxRootFields: number;
  /** lexical tokens of the document */
  maxTokens: number;
  /** directives in the document */
  maxDirectives: number;
  /** the cost budget of an operation (schema/complexity.ts) */
  maxComplexity: number;
  /** bytes of a request body */
  maxBodyBytes: number;
}

export const LIMIT_CODES = {
  depth: 'GRAPHQL_DEPTH_LIMIT',
  aliases: 'GRAPHQL_ALIAS_LIMIT',
  rootFields: 'GRAPHQL_ROOT_FIELD_LIMIT',
  tokens: 'GRAPHQL_TOKEN_LIMIT',
  directives: 'GRAPHQL_DIRECTIVE_LIMIT',
  complexity: 'GRAPHQL_COMPLEXITY_LIMIT',
} as const;

/** The limits of a server's configuration (config.ts declares each setting with its default). */
export function graphqlLimitsOf(config: Config): GraphQLLimits {
  return {
    maxDepth: config.graphqlMaxDepth,
    maxAliases: config.graphqlMaxAliases,
    maxRootFields: config.graphqlMaxRootFields,
    maxTokens: config.graphqlMaxTokens,
    maxDirectives: config.graphqlMaxDirectives,
    maxComplexity: config.graphqlMaxComplexity,
    maxBodyBytes: config.graphqlMaxBodyBytes,
  };
}

// as yoga codes its own validation errors: a 400 where the client accepts
// application/graphql-response+json, a 200 with the errors under application/json
function limitError(message: string, code: string, node?: ASTNode): GraphQLError {
  return new GraphQLError(message, { ...(node ? { nodes: [node] } : {}), extensions: { code, http: { spec: true, status: 400 } } });
}

/** graphql's parse, refusing a document of more than `maxTokens` tokens as soon as the lexer passes them. */
export function parseWithTokenLimit(maxTokens: number): (source: string | Source, options?: ParseOptions) => DocumentNode {
  return (source, options) => {
    let refusal: GraphQLError | undefined;
    const parser = new MaxTokensParserWLexer(source, {
      ...options,
      n: maxTokens,
      onReject: [
        (_context, error) => {
          refusal = error;
        },
      ],
    });
    try {
      return parser.parseDocument();
    } catch (error) {
      if (error !== undefined && error === refusal) throw limitError(`the document has more than ${maxTokens} tokens`, LIMIT_CODES.tokens);
      throw error;
    }
  };
}

// graphql-armor's rules report through their onReject callbacks (never throwing out of the
// validation) with their own message; the error a client sees carries our code
function reportAs(code: string) {
  return {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: GraphQLError) => {
        context?.reportError(limitError(error.message.replace(/^Syntax Error: /, ''), code));
      },
    ],
  };
}

function rootFieldCount(set: SelectionSetNode, context: ValidationContext, visiting: Set<string>): number {
  let count = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) count += rootFieldCount(selection.selectionSet, context, visiting);
    else if (!visiting.has(selection.name.value)) {
      const fragment = context.getFragment(selection.name.value);
      // a fragment that spreads itself is NoFragmentCyclesRule's to report
      if (fragment) count += rootFieldCount(fragment.selectionSet, context, new Set([...visiting, selection.name.value]));
    }
  }
  return count;
}

function maxRootFieldsRule(limit: number): ValidationRule {
  return function maxRootFields(context: ValidationContext): ASTVisitor {
    return {
      OperationDefinition(node: OperationDefinitionNode) {
        const count = rootFieldCount(node.selectionSet, context, new Set());
        if (count > limit) {
          context.reportError(
            limitError(`the operation selects ${count} root fields, more than the limit of ${limit}`, LIMIT_CODES.rootFields, node),
          );
        }
      },
    };
  };
}

/** The validation rules of the limits that need no variables (yoga caches their verdict with the document). */
export function queryLimitRules(limits: GraphQLLimits): ValidationRule[] {
  return [
    maxDepthRule({ n: limits.maxDepth, flattenFragments: true, ...reportAs(LIMIT_CODES.depth) }),
    // __typename is no work, as graphql-armor counts it
    maxAliasesRule({ n: limits.maxAliases, ...reportAs(LIMIT_CODES.aliases) }),
    maxDirectivesRule({ n: limits.maxDirectives, ...reportAs(LIMIT_CODES.directives) }),
    maxRootFieldsRule(limits.maxRootFields),
  ];
}

/**
 * The cost of the operation a request runs (a page size given as a variable counts as given) and,
 * when it is over `maxComplexity`, its refusal. A variable the operation cannot take is left to the
 * execution to report.
 */
export function operationCost(request: {
  schema: GraphQLSchema;
  document: DocumentNode;
  variableValues?: Record<string, unknown> | null | undefined;
  operationName?: string | null | undefined;
  contextValue: object;
  maxComplexity: number;
}): { complexity: number; errors: readonly GraphQLError[] } {
  let complexity = 0;
  const rule = createComplexityRule({
    context: request.contextValue,
    variableValues: request.variableValues ?? {},
    operationName: request.operationName,
    validate: (cost, reportError) => {
      complexity = cost.complexity;
      if (cost.complexity > request.maxComplexity) {
        reportError(
          limitError(`the query costs ${cost.complexity}, more than the limit of ${request.maxComplexity}`, LIMIT_CODES.complexity),
        );
      }
    },
  });
  const errors = validate(request.schema, request.document, [rule]).filter((error) => error.extensions.code === LIMIT_CODES.complexity);
  return { complexity, errors };
}

/** The refusal of an operation over `maxComplexity`, or none. */
export function complexityErrors(request: Parameters<typeof operationCost>[0]): readonly GraphQLError[] {
  return operationCost(request).errors;
}

/**
 * Charges what an operation costs beyond the one rate unit every request is charged at its start
 * (server.ts): the rate limit counts GraphQL by cost. Answers the refusal, or null.
 */
export type ChargeCost = (serverContext: unknown, complexity: number) => GraphQLError | null;

/** The limits as yoga plugins: the token-counting parser, the rules, the cost before each execution. */
export function graphqlLimitsPlugin(limits: GraphQLLimits, chargeCost?: ChargeCost): Plugin {
  const parse = parseWithTokenLimit(limits.maxTokens);
  const rules = queryLimitRules(limits);
  const checkCost = ({
    args,
    setResultAndStopExecution,
  }: {
    args: {
      schema: GraphQLSchema;
      document: DocumentNode;
      variableValues?: Record<string, unknown> | null;
      operationName?: string | null;
      contextValue: unknown;
    };
    setResultAndStopExecution: (result: { errors: readonly GraphQLError[] }) => void;
  }): void => {
    const { complexity, errors } = operationCost({
      ...args,
      contextValue: args.contextValue as object,
      maxComplexity: limits.maxComplexity,
    });
    const refusal = errors.length > 0 ? null : (chargeCost?.(args.contextValue, complexity) ?? null);
    if (errors.length > 0) setResultAndStopExecution({ errors });
    else if (refusal) setResultAndStopExecution({ errors: [refusal] });
  };
  return {
    onParse({ setParseFn }) {
      setParseFn(parse);
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
    },
    onExecute: checkCost,
    onSubscribe: checkCost,
  };
}
