// GraphQL object type names of operation and effect types: create_account → CreateAccountOperation,
// account_created → AccountCreatedEffect.
function pascalCase(snake: string): string {
  return snake.replace(/(^|_)([a-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());
}

// resolveType asks once per record: remember each name (one map per suffix, so a lookup builds no key)
const operationNames = new Map<string, string>();
const effectNames = new Map<string, string>();

function cached(names: Map<string, string>, name: string, suffix: string): string {
  let value = names.get(name);
  if (value === undefined) {
    value = `${pascalCase(name)}${suffix}`;
    names.set(name, value);
  }
  return value;
}

export function operationTypeObjectName(name: string): string {
  return cached(operationNames, name, 'Operation');
}

export function effectTypeObjectName(name: string): string {
  return cached(effectNames, name, 'Effect');
}
