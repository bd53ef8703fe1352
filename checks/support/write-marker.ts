/**
 * A recognisable change to write (bola.modify): the operation's JSON body with one field set to a value nobody else
 * would write — a marker string, or a number for a numeric-only body — so that seeing it on read-back proves this
 * very write took effect, and the original value can be written back afterwards. The marker is derived from a seed
 * (the operation id), so two runs of the same scan send the same requests; a value the object already holds (an
 * earlier run whose restore failed) is never chosen.
 */
import { createHash } from 'node:crypto';

export interface MarkedWrite {
  /** The top-level field changed. */
  field: string;
  marker: string | number;
  body: string;
}

/** Fields that identify or own the object, or are validated so strictly a marker would be refused: never changed. */
const UNTOUCHABLE =
  /^(_?id|uuid|.*[_-]?ids?|owner.*|user.*|tenant.*|org.*|account.*|e-?mail.*|password.*|.*token.*|.*secret.*|role.*|.*url|.*uri|.*date|.*_at|created.*|updated.*|type|kind|status|version)$/i;
/** Free-text fields first: they take any string. */
const FREE_TEXT = /(name|title|desc|note|comment|label|text|bio|message|summary|subject|item|nickname|headline|about)/i;

function parseObject(body: string | undefined): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  try {
    const value = JSON.parse(body) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const digest = (seed: string): Buffer => createHash('sha256').update(seed).digest();

/**
 * The body with one field changed to a marker, or `undefined` when the body is not a JSON object with such a field.
 * `current` is the object as read before the write: the marker differs from what it holds in that field.
 */
export function markedWrite(body: string | undefined, seed: string, current = ''): MarkedWrite | undefined {
  const object = parseObject(body);
  if (!object) return undefined;
  const candidates = Object.entries(object).filter(([key]) => !UNTOUCHABLE.test(key));
  const strings = candidates.filter(([, value]) => typeof value === 'string').map(([key]) => key);
  const ranked = [...strings.filter((k) => FREE_TEXT.test(k)), ...strings.filter((k) => !FREE_TEXT.test(k))];
  const field = ranked[0];
  const held = (key: string): unknown => valueOf(current, key);
  if (field !== undefined) {
    let marker = `gatehouse-${digest(seed).toString('hex').slice(0, 12)}`;
    if (held(field) === marker) marker = `gatehouse-${digest(`${seed}#2`).toString('hex').slice(0, 12)}`;
    return { field, marker, body: JSON.stringify({ ...object, [field]: marker }) };
  }
  const number = candidates.find(([, value]) => typeof value === 'number' && Number.isInteger(value))?.[0];
  if (number === undefined) return undefined;
  // A value no sample is likely to hold, in a range most validators accept (1 003 … 63 000).
  let marker = (digest(seed).readUInt32BE(0) % 9_000) * 7 + 1_003;
  if (held(number) === marker) marker += 7;
  return { field: number, marker, body: JSON.stringify({ ...object, [number]: marker }) };
}

/** The first value stored under `field` anywhere in a JSON body (the record, or a wrapper like `{ data: {…} }`). */
export function valueOf(body: string, field: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const queue: unknown[] = [parsed];
  while (queue.length > 0) {
    const value = queue.shift();
    if (!value || typeof value !== 'object') continue;
    if (!Array.isArray(value) && Object.hasOwn(value, field)) return (value as Record<string, unknown>)[field];
    queue.push(...Object.values(value as Record<string, unknown>));
  }
  return undefined;
}

/** True when the read-back shows the marker: the field holds it, or (a string marker) the body contains it. */
export function showsMarker(body: string, write: MarkedWrite): boolean {
  return (
    valueOf(body, write.field) === write.marker || (typeof write.marker === 'string' && body.includes(write.marker))
  );
}

/** The write that puts `original` back into the field the marker changed. */
export function restoringBody(body: string, write: MarkedWrite, original: unknown): string {
  const object = parseObject(body) ?? {};
  return JSON.stringify({ ...object, [write.field]: original });
}
