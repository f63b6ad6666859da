// GraphQL results become Horizon JSON: camelCase keys turn into snake_case, nothing else changes
// (scalars were already serialized by their GraphQL types).

export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

export function toRestJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toRestJson);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === '__typename') continue;
    out[snakeCase(key)] = toRestJson(inner);
  }
  return out;
}
