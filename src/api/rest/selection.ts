// The selection set of a resource, derived from its GraphQL type so that REST never keeps a second
// field list: every field without required arguments whose type is a leaf, or a small value
// object (no id, not a connection), recursively.
import {
  getNamedType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  isUnionType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

export function selectionFor(schema: GraphQLSchema, typeName: string): string {
  const type = schema.getType(typeName);
  if (!type) throw new Error(`no GraphQL type ${typeName}`);
  return selectionOf(schema, type, new Set());
}

function selectionOf(schema: GraphQLSchema, type: GraphQLNamedType, seen: Set<string>): string {
  if (isLeafType(type)) return '';
  if (isUnionType(type) || isInterfaceType(type)) {
    const members = isUnionType(type) ? type.getTypes() : schema.getPossibleTypes(type);
    const common = isInterfaceType(type) ? fieldsOf(schema, type.getFields(), seen) : '__typename';
    const fragments = members.map((member) => `... on ${member.name} ${selectionOf(schema, member, seen)}`);
    return `{ ${common} ${fragments.join(' ')} }`;
  }
  if (!isObjectType(type)) return '';
  return `{ ${fieldsOf(schema, type.getFields(), seen)} }`;
}

function fieldsOf(
  schema: GraphQLSchema,
  fields: Record<string, GraphQLField<unknown, unknown>>,
  seen: Set<string>,
): string {
  const parts: string[] = [];
  for (const field of Object.values(fields)) {
    if (field.args.some((arg) => arg.type.toString().endsWith('!') && arg.defaultValue === undefined)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) {
      parts.push(field.name);
    } else if (isValueObject(named) && !seen.has(named.name)) {
      parts.push(`${field.name} ${selectionOf(schema, named, new Set([...seen, named.name]))}`);
    }
  }
  return parts.join(' ');
}

/** A nested object rendered inline: it has no identity of its own and is not a connection. */
function isValueObject(type: GraphQLNamedType): boolean {
  if (!isObjectType(type) && !isInterfaceType(type) && !isUnionType(type)) return false;
  if (type.name.endsWith('Connection') || type.name.endsWith('Edge')) return false;
  if (isUnionType(type)) return true;
  return !('id' in type.getFields());
}
