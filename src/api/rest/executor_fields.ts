// One object type's fields, as a document selects them, run by a function generated for them (as
// graphql-jit generates one per query). executeFields' loop calls every field's resolver and
// serializer from the same call sites, which see ~25 functions on a page of records, so V8 can
// inline none of them. Here each field has call sites of its own: a column's resolver and its
// scalar's serializer are inlined as in a hand-written mapping, and the result is one object
// literal. Only the common case is written out: a leaf without arguments whose resolver does not
// read `info`, resolving to a string, number, bigint or boolean that its serializer turns into a
// string, number or boolean. Any other value (null, a promise, an Error, an object) and any other
// field go through executor_run.ts's steps (resolveField, settleField, failField), so that
// graphql-js's rules have one home. (A serializer that gives back anything else is called again by
// settleField: serializers are pure.)
import { getNullableType, type GraphQLLeafType, type ResponsePath } from 'graphql';
import { NO_ARGUMENTS, failField, isPromise, resolveField, settleField, type FieldPlan, type Run } from './executor_run.js';

/** runs the fields of one object: its result, or a promise of it */
export type ObjectFields = (run: Run, source: unknown, path: ResponsePath | undefined) => unknown;

const helpers = { resolveField, settleField, failField, isPromise, giveUp, awaitFields, NO_ARGUMENTS };

/** as graphql-js: the fields already running settle before the object gives up */
function giveUp(values: readonly unknown[], error: unknown): Promise<never> {
  const pending = values.filter(isPromise);
  if (pending.length === 0) throw error;
  return Promise.allSettled(pending).then(() => Promise.reject(error));
}

/** the object once its pending fields settle, each in its key's place (REST leaves a null out) */
function awaitFields(result: Record<string, unknown>, rest: boolean): Promise<Record<string, unknown>> {
  const pending: Promise<void>[] = [];
  for (const key of Object.keys(result)) {
    const value = result[key];
    if (!isPromise(value)) continue;
    result[key] = undefined; // keeps the key's place
    pending.push(
      value.then((done) => {
        result[key] = rest ? (done ?? undefined) : done;
      }),
    );
  }
  return Promise.all(pending).then(() => result);
}

/**
 * The generated runner of these fields, or null where a literal cannot hold the result: no field
 * (REST drops __typename), two fields written under one key, a key that a literal would read as
 * its prototype. `rest`: a null field is left out of the JSON as an undefined value, which
 * JSON.stringify skips (every reader of REST's shape skips it too).
 */
export function compileFields(plans: readonly FieldPlan[], rest: boolean): ObjectFields | null {
  const keys = plans.map((plan) => plan.out);
  if (keys.length === 0 || new Set(keys).size !== keys.length || keys.includes('__proto__')) return null;
  const prelude: string[] = [];
  const body: string[] = [];
  const values = plans.map((_, i) => `v${i}`);
  plans.forEach((plan, i) => {
    prelude.push(`const p${i} = plans[${i}];`);
    const v = values[i];
    // the values so far, for giveUp
    const sofar = `[${values.slice(0, i).join(', ')}]`;
    if (!(plan.leaf && !plan.takesArguments && !plan.readsInfo)) {
      body.push(`try { ${v} = h.resolveField(run, p${i}, source, path); } catch (fatal) { return h.giveUp(${sofar}, fatal); }`);
      return;
    }
    let resolve: string;
    if (plan.resolve) {
      prelude.push(`const r${i} = p${i}.resolve;`);
      resolve = `r${i}(source, NO_ARGUMENTS, ctx, undefined)`;
    } else {
      // graphql-js's default resolver: the property (a method is called by settleField)
      resolve = `source == null ? undefined : source[${JSON.stringify(plan.field.name)}]`;
    }
    prelude.push(`const t${i} = types[${i}];`);
    body.push(`try {
    const x = ${resolve};
    if (typeof x === 'string' || typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean') {
      const s = t${i}.serialize(x);
      ${v} = typeof s === 'string' || typeof s === 'number' || typeof s === 'boolean' ? s : h.settleField(run, p${i}, source, x, path);
    } else ${v} = h.settleField(run, p${i}, source, x, path);
  } catch (error) {
    try { ${v} = h.failField(run, error, p${i}, path); } catch (fatal) { return h.giveUp(${sofar}, fatal); }
  }`);
  });
  const value = (v: string) => (rest ? `${v} ?? undefined` : v);
  const literal = `{ ${keys.map((key, i) => `${JSON.stringify(key)}: ${value(values[i]!)}`).join(', ')} }`;
  const promised = values.map((v) => `((typeof ${v} === 'object' || typeof ${v} === 'function') && ${v} !== null && isPromise(${v}))`);
  const code = `
${prelude.join('\n')}
const NO_ARGUMENTS = h.NO_ARGUMENTS;
const isPromise = h.isPromise;
return function fields(run, source, path) {
  const ctx = run.context;
  let ${values.join(', ')};
  ${body.join('\n  ')}
  const result = ${literal};
  return ${promised.join(' || ')} ? h.awaitFields(result, ${rest}) : result;
};`;
  // each leaf's scalar, for its serializer (its nullability is settleField's to check, on a null)
  const types = plans.map((plan) => (plan.leaf ? (getNullableType(plan.field.type) as GraphQLLeafType) : null));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the generated runner (see the top of this file)
  return new Function('plans', 'types', 'h', code)(plans, types, helpers) as ObjectFields;
}
