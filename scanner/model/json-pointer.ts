/** Reading and setting one value of a JSON document by JSON Pointer (RFC 6901), without touching the rest. */

const tokens = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

export function getPointer(document: unknown, pointer: string): unknown {
  let node = document;
  for (const token of tokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) ? node[Number(token)] : (node as Record<string, unknown>)[token];
  }
  return node;
}

/** A copy of `document` with the value at `pointer` replaced; undefined when a parent is missing. */
export function setPointer(document: unknown, pointer: string, value: unknown): unknown {
  const path = tokens(pointer);
  if (path.length === 0) return value;
  const copy = structuredClone(document);
  let node: unknown = copy;
  for (const token of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  if (node === null || typeof node !== 'object') return undefined;
  (node as Record<string, unknown>)[path[path.length - 1]] = value;
  return copy;
}

/** A copy of `document` without the member at `pointer` (unchanged when there is none). */
export function deletePointer(document: unknown, pointer: string): unknown {
  const path = tokens(pointer);
  const copy = structuredClone(document);
  let node: unknown = copy;
  for (const token of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return copy;
    node = (node as Record<string, unknown>)[token];
  }
  if (node !== null && typeof node === 'object' && !Array.isArray(node))
    Reflect.deleteProperty(node, path[path.length - 1]);
  return copy;
}

export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
