/**
 * Compares what two identities were answered for the same object (bola.read): the same JSON value, the same text, or
 * JSON objects with the same identifier. An answer that carries no data (empty, `{}`, `[]`, only nulls, zeros and
 * empty lists) identifies nothing: two users' empty lists are equal without any leak.
 */

function parse(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

/** True when the value holds at least one non-empty string (an id, a name…): numbers and booleans alone may be paging. */
function hasStringLeaf(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(hasStringLeaf);
  if (value && typeof value === 'object') return Object.values(value).some(hasStringLeaf);
  return false;
}

export function carriesData(body: string): boolean {
  if (body.trim() === '') return false;
  const parsed = parse(body);
  return parsed.ok ? hasStringLeaf(parsed.value) : true;
}

const ID_KEYS = ['id', '_id', 'uuid'];

function identifier(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const key = ID_KEYS.find((k) => typeof record[k] === 'string' || typeof record[k] === 'number');
  return key === undefined ? undefined : String(record[key]);
}

export function sameObject(own: string, theirs: string): boolean {
  if (own === theirs) return true;
  const a = parse(own);
  const b = parse(theirs);
  if (!a.ok || !b.ok) return false;
  if (JSON.stringify(a.value) === JSON.stringify(b.value)) return true;
  const id = identifier(a.value);
  return id !== undefined && id !== '' && id === identifier(b.value);
}
