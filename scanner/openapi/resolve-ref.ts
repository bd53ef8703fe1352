/** Follows local `$ref`s (`#/components/…`, JSON Pointer, RFC 6901) inside one OpenAPI document. */

export function resolveRef<T = Record<string, unknown>>(document: unknown, value: unknown, depth = 0): T | undefined {
  if (typeof value !== 'object' || value === null) return value as T;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return value as T;
  if (!ref.startsWith('#/') || depth > 16) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return resolveRef<T>(document, node, depth + 1);
}
