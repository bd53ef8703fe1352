/**
 * Finds the first `$ref` of a description that cannot be followed: external references (other files or URLs, which
 * the scanner does not fetch) and local JSON Pointers (RFC 6901) that point at nothing. A scan never starts on a
 * description whose operations would silently lose parameters, bodies or security schemes.
 */

function pointsAtSomething(document: unknown, ref: string): boolean {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** A one-line description of the first broken `$ref` (with where it is), or undefined when every `$ref` resolves. */
export function firstBrokenRef(document: unknown, node: unknown, at = '#'): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (ref === '#') return undefined;
    if (!ref.startsWith('#/'))
      return `$ref "${ref}" at ${at} is external; only references inside the description are resolved`;
    if (!pointsAtSomething(document, ref)) return `$ref "${ref}" at ${at} cannot be resolved`;
  }
  for (const [key, value] of Object.entries(node)) {
    // `example(s)` values are data, not schema: a "$ref" key inside them is not a reference.
    if (key === 'example' || (key === 'examples' && Array.isArray(value))) continue;
    const found = firstBrokenRef(document, value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    if (found) return found;
  }
  return undefined;
}
