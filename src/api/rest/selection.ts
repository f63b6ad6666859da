// The selection set of a resource, derived from its GraphQL type so that REST never keeps a second
// field list: every field without required arguments whose type is a leaf, or a small value
// object (no id, not a connection), recursively. The Relay `id` of Node types is left out (REST
// ids are Horizon's, see resources.ts); fields in REST_RENAMES are selected under their REST name.
import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { REST_RENAMES } from './render.js';

/** `extra` is selected besides the type's own fields (after an interface's common ones): a joined resource. */
export function selectionFor(schema: GraphQLSchema, typeName: string, extra = ''): string {
  const type = schema.getType(typeName);
  if (!type) throw new Error(`no GraphQL type ${typeName}`);
  return selectionOf(schema, type, new Set(), extra);
}

function selectionOf(schema: GraphQLSchema, type: GraphQLNamedType, seen: Set<string>, extra = ''): string {
  if (isLeafType(type)) return '';
  if (isUnionType(type)) {
    const fragments = type.getTypes().map((member) => `... on ${member.name} ${selectionOf(schema, member, seen)}`);
    return `{ __typename ${fragments.join(' ')} }`;
  }
  if (isInterfaceType(type)) {
    const common = fieldsOf(schema, type, type.getFields(), seen);
    const fragments = schema.getPossibleTypes(type).map((member) => {
      const own = Object.fromEntries(Object.entries(member.getFields()).filter(([name]) => !(name in type.getFields())));
      const fields = fieldsOf(schema, member, own, seen);
      return fields ? `... on ${member.name} { ${fields} }` : '';
    });
    return `{ ${common} ${extra} ${fragments.join(' ')} }`;
  }
  if (!isObjectType(type)) return '';
  return `{ ${fieldsOf(schema, type, type.getFields(), seen)} ${extra} }`;
}

function fieldsOf(
  schema: GraphQLSchema,
  owner: GraphQLObjectType | GraphQLInterfaceType,
  fields: Record<string, GraphQLField<unknown, unknown>>,
  seen: Set<string>,
): string {
  const parts: string[] = [];
  for (const field of Object.values(fields)) {
    if (field.args.some((arg) => arg.type.toString().endsWith('!') && arg.defaultValue === undefined)) continue;
    if (field.name === 'id' && isNode(owner)) continue;
    const named = getNamedType(field.type);
    const alias = restName(owner, field.name);
    const selected = alias ? `${alias}: ${field.name}` : field.name;
    if (isLeafType(named)) {
      parts.push(selected);
    } else if (isValueObject(named) && !seen.has(named.name)) {
      parts.push(`${selected} ${selectionOf(schema, named, new Set([...seen, named.name]))}`);
    }
  }
  return parts.join(' ');
}

function isNode(type: GraphQLObjectType | GraphQLInterfaceType): boolean {
  return type.name === 'Node' || type.getInterfaces().some((i) => i.name === 'Node');
}

function restName(owner: GraphQLObjectType | GraphQLInterfaceType, field: string): string | undefined {
  const names = [owner.name, ...owner.getInterfaces().map((i) => i.name)];
  for (const name of names) {
    const renamed = REST_RENAMES[`${name}.${field}`];
    if (renamed) return renamed;
  }
  return undefined;
}

/** A nested object rendered inline: it has no identity of its own and is not a connection. */
function isValueObject(type: GraphQLNamedType): boolean {
  if (!isObjectType(type) && !isInterfaceType(type) && !isUnionType(type)) return false;
  if (type.name.endsWith('Connection') || type.name.endsWith('Edge')) return false;
  if (isUnionType(type)) return true;
  return !('id' in type.getFields());
}
