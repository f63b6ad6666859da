// Values that REST must render exactly as stored (Horizon's own JSON inside details, an account's
// data names): marked with a symbol that JSON.stringify ignores, so GraphQL clients see plain JSON
// and the REST renderer knows not to rename their keys.
const VERBATIM = Symbol('verbatim');

export function verbatim<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    Object.defineProperty(value, VERBATIM, { value: true, enumerable: false });
  }
  return value;
}

export function isVerbatim(value: unknown): boolean {
  return value !== null && typeof value === 'object' && VERBATIM in value;
}
