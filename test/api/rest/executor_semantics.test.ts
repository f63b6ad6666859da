// The planned executor against graphql-js on a small schema that exercises what the route
// documents do not in their normal answers: errors in nullable and non-null fields and list items
// (null bubbling), nulls where none may be, promises at every level, resolveType by name,
// isTypeOf, aliases, arguments from variables, fragments, a scalar that refuses a value, and a
// field that fails while its siblings still run (which must not leave a rejection unhandled).
// graphql-js prints values in some of its messages: those are held to its words on every kind of
// value, so that its printing (a private module) and ours do not drift apart.
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type ExecutionResult,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileDocument, compileRestDocument, interpretDocument } from '../../../src/api/rest/executor.js';
import { toRestJson } from '../../../src/api/rest/render.js';

const Strict = new GraphQLScalarType({
  name: 'Strict',
  serialize: (value) => {
    if (value === 'bad') throw new TypeError('Strict cannot show "bad"');
    return value;
  },
});

// gives nothing back for any value: graphql-js's message prints the value
const Mute = new GraphQLScalarType({ name: 'Mute', serialize: (value) => (value === 'undefined' ? undefined : null) });

class Ledger {
  constructor(readonly sequence: number) {}
}
const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;
const selfJson = { a: 1, toJSON: (): unknown => selfJson };
const bare = Object.assign(Object.create(null) as Record<string, unknown>, { key: 'value' });
const tagged = Object.assign(new Map([[1, 2]]), { size2: 2 });
const sparse: unknown[] = [1];
sparse[2] = 3; // a hole at 1
// graphql-js prints two levels: the third is named by its tag
const deep = (value: unknown) => ({ one: { two: value } });

/** values of every kind, as a resolver might hand them to a scalar */
const shown: unknown[] = [
  'text',
  'undefined',
  42,
  Number.NaN,
  true,
  10n,
  Symbol('s'),
  function named() {},
  [() => 1][0],
  {},
  [],
  { n: null, u: undefined, s: 'x', list: [1, 'two'] },
  deep({ three: 1 }),
  deep(new Ledger(7)),
  deep(bare),
  deep(tagged),
  deep([1]),
  { map: new Map([[1, 2]]), date: new Date(0) },
  Array.from({ length: 11 }, (_, i) => i),
  Array.from({ length: 12 }, (_, i) => i),
  sparse,
  [[[[1]]]],
  circular,
  { toJSON: () => 'as json' },
  { toJSON: () => ({ inner: [1] }) },
  selfJson,
  new Ledger(1),
];

const Node = new GraphQLInterfaceType({
  name: 'Node',
  fields: { name: { type: new GraphQLNonNull(GraphQLString) } },
  // a resolveType may answer anything: some of the values below answer what is not a name
  resolveType: (value: { kind: unknown }) => (value.kind === 'later' ? Promise.resolve('Cat') : (value.kind as string)),
});

const Dog = new GraphQLObjectType({
  name: 'Dog',
  interfaces: [Node],
  isTypeOf: (value: { kind: string }) => value.kind === 'Dog',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    barks: { type: GraphQLBoolean, resolve: () => Promise.resolve(true) },
  },
});

const Cat = new GraphQLObjectType({
  name: 'Cat',
  interfaces: [Node],
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    lives: { type: new GraphQLNonNull(GraphQLInt), resolve: (cat: { lives?: number }) => cat.lives ?? null },
  },
});

const Box: GraphQLObjectType = new GraphQLObjectType({
  name: 'Box',
  fields: (): GraphQLFieldConfigMap<{ inner?: unknown }, unknown> => ({
    label: { type: Strict },
    size: { type: new GraphQLNonNull(GraphQLInt) },
    inner: { type: Box, resolve: (box: { inner?: unknown }) => box.inner },
    strictInner: { type: new GraphQLNonNull(Box), resolve: (box: { inner?: unknown }) => box.inner ?? null },
    method: { type: GraphQLString },
  }),
});

// properties read by the default resolver (a method is called) into the built-in scalars, given
// every kind of value: what a shortcut for plain columns (no call to resolve or serialize) must keep
const Plain = new GraphQLObjectType({
  name: 'Plain',
  fields: {
    s: { type: GraphQLString },
    i: { type: GraphQLInt },
    f: { type: GraphQLFloat },
    b: { type: GraphQLBoolean },
    id: { type: GraphQLID },
    strictS: { type: new GraphQLNonNull(GraphQLString) },
    strictI: { type: new GraphQLNonNull(GraphQLInt) },
  },
});

const PLAIN_VALUES: unknown[] = [
  'text',
  '',
  '7',
  '1.5',
  0,
  -0,
  7,
  -7,
  1.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  false,
  null,
  undefined,
  10n,
  { valueOf: () => 3 },
  [1],
  () => 'from a method',
];

const Pair = new GraphQLObjectType({
  name: 'Pair',
  fields: {
    slow: {
      type: new GraphQLNonNull(GraphQLString),
      resolve: () => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('slow')), 5)),
    },
    fast: { type: new GraphQLNonNull(GraphQLInt), resolve: () => null },
  },
});

const Query = new GraphQLObjectType({
  name: 'Query',
  fields: {
    hello: {
      type: GraphQLString,
      args: { name: { type: GraphQLString } },
      resolve: (_s, args: { name?: string }) => `hello ${args.name ?? 'you'}`,
    },
    boom: {
      type: GraphQLString,
      resolve: () => {
        throw new Error('boom');
      },
    },
    late: { type: GraphQLString, resolve: () => Promise.reject(new Error('late boom')) },
    box: {
      type: Box,
      args: { size: { type: GraphQLInt } },
      resolve: (_s, { size }: { size?: number }) => ({ label: 'ok', size: size ?? 1, method: () => 'called' }),
    },
    badBox: { type: Box, resolve: () => ({ label: 'bad', size: null, inner: { label: 'x', size: 2 } }) },
    strictBoxes: {
      type: new GraphQLList(new GraphQLNonNull(Box)),
      resolve: () => [
        { label: 'a', size: 1 },
        { label: 'b', size: null },
      ],
    },
    boxes: {
      type: new GraphQLList(Box),
      resolve: () => [{ label: 'a', size: 1 }, Promise.resolve({ label: 'b', size: 2 }), { label: 'c', size: null }],
    },
    nodes: {
      type: new GraphQLList(Node),
      resolve: () => [
        { kind: 'Dog', name: 'Rex' },
        { kind: 'later', name: 'Tom', lives: 9 },
        { kind: 'Cat', name: 'Nine' },
        { kind: 'Fish', name: 'Nemo' },
      ],
    },
    oddNodes: {
      type: new GraphQLList(Node),
      resolve: () => [
        { kind: 7, name: 'Seven' },
        { kind: { nested: ['a'] }, name: 'Object' },
        { kind: undefined, name: 'Nobody' },
        { kind: Dog, name: 'Type' },
        { kind: 'Box', name: 'NotANode' },
        { kind: 'Strict', name: 'Scalar' },
      ],
    },
    dog: { type: Dog, resolve: () => ({ kind: 'Cat', name: 'Tom', toys: ['ball', { squeaks: true }] }) },
    muted: { type: new GraphQLList(Mute), resolve: () => shown },
    notAList: { type: new GraphQLList(GraphQLString), resolve: () => 42 },
    pair: { type: Pair, resolve: () => ({}) },
    plains: {
      type: new GraphQLList(Plain),
      resolve: () => PLAIN_VALUES.map((v) => ({ s: v, i: v, f: v, b: v, id: v, strictS: v, strictI: v })),
    },
    pairs: { type: new GraphQLList(new GraphQLNonNull(Pair)), resolve: () => [Promise.resolve({}), {}] },
  },
});

const schema = new GraphQLSchema({ query: Query, types: [Dog, Cat] });

const outcome = (result: ExecutionResult) => ({
  data: result.data,
  errors: result.errors?.map((error) => ({ message: error.message, path: error.path })),
});

async function both(text: string, variables: Record<string, unknown> = {}) {
  const document = parse(text);
  const planned = outcome(await compileDocument(schema, document)({}, variables));
  const interpreted = outcome(await interpretDocument(schema, document)({}, variables));
  const rest = outcome(await compileRestDocument(schema, document)({}, variables));
  return { planned, interpreted, rest };
}

/** as JSON sends it (a field that resolved late to null keeps an undefined placeholder in REST's shape) */
const json = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

describe('the planned executor', () => {
  it.each([
    [
      'arguments from variables and literals, aliases',
      'query($n: String) { a: hello(name: $n) hello box(size: 3) { size label m: method } }',
      { n: 'Zed' },
    ],
    ['an error in a nullable field, sync and async', '{ boom late hello }', {}],
    ['a null in a non-null field bubbles to the nearest nullable one', '{ badBox { label size } box { size } }', {}],
    ['a non-null child that is null nulls its parent object', '{ badBox { inner { label } strictInner { label } } }', {}],
    ['a non-null list item that is null nulls the list', '{ strictBoxes { label size } }', {}],
    ['list items: a promise, and an item whose field fails', '{ boxes { label size } }', {}],
    [
      'resolveType by name or promise, isTypeOf, a type that does not exist',
      '{ nodes { __typename name ... on Dog { barks } ... on Cat { lives } } }',
      {},
    ],
    ['fragments', 'query { box { ...B } } fragment B on Box { size inner { size } }', {}],
    [
      'fragments on an interface and its types, spread twice, nested, without a condition',
      '{ nodes { ...N ... { name } ... on Node { n: name } ...N ... on Dog { ...D } } } fragment N on Node { __typename } fragment D on Dog { barks name }',
      {},
    ],
    ['one field selected twice: its selections merge', '{ box { size } box { label inner { size } } }', {}],
    ['a scalar that refuses a value', '{ badBox { label } box { label } }', {}],
    ['a list that is not one', '{ notAList }', {}],
    ['a failing field while a sibling still runs', '{ pair { slow fast } }', {}],
    ['a variable its type refuses', 'query($s: Int) { box(size: $s) { size } }', { s: 'x' }],
    ['resolveType answering what is not a possible type', '{ oddNodes { name } }', {}],
    ['isTypeOf refusing a value', '{ dog { name } }', {}],
    ['a scalar that gives nothing back, for every kind of value', '{ muted }', {}],
    ['properties of built-in scalars, read as they are, of every kind', '{ plains { s i f b id } }', {}],
    ['the same, non-null', '{ plains { strictS } p: plains { strictI } }', {}],
  ])('%s', async (_name, text, variables) => {
    const { planned, interpreted, rest } = await both(text, variables);
    expect(planned).toEqual(interpreted);
    // REST's shape in one pass: what toRestJson makes of graphql-js's data, with the same errors
    expect({ data: json(rest.data), errors: rest.errors }).toEqual({
      data: json(toRestJson(interpreted.data)),
      errors: interpreted.errors,
    });
  });

  // graphql-js 16 leaves the running item's rejection unhandled here (a crash under Node's default
  // policy), so the planned executor is held to graphql-js's rules instead of its output
  it('a failing list item while an earlier item still runs', async () => {
    const result = await compileDocument(schema, parse('{ pairs { fast } }'))({}, {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(outcome(result)).toEqual({
      data: { pairs: null },
      errors: [{ message: 'Cannot return null for non-nullable field Pair.fast.', path: ['pairs', 1, 'fast'] }],
    });
  });
});
