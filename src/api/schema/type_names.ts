// GraphQL object type names of operation and effect types: create_account → CreateAccountOperation,
// account_created → AccountCreatedEffect.
function pascalCase(snake: string): string {
  return snake.replace(/(^|_)([a-z0-9])/g, (_m, _sep: string, c: string) => c.toUpperCase());
}

// resolveType asks once per record: remember each name
const names = new Map<string, string>();

function cached(name: string, suffix: string): string {
  const key = `${name}/${suffix}`;
  let value = names.get(key);
  if (value === undefined) {
    value = `${pascalCase(name)}${suffix}`;
    names.set(key, value);
  }
  return value;
}

export function operationTypeObjectName(name: string): string {
  return cached(name, 'Operation');
}

export function effectTypeObjectName(name: string): string {
  return cached(name, 'Effect');
}
