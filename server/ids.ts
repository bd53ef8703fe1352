/**
 * Prefixed random ids (docs/architecture.md §1.3): `org_…`, `reg_…`, `cs_…` — base62, ≥ 96 bits of randomness; audit entries'
 * ids carry their creation order before the random part (`newOrderedId`).
 */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 22 base62 characters carry 22·log2(62) ≈ 131 bits, comfortably above the 96 bits the design asks for. */
const RANDOM_LENGTH = 22;
/** Ids we accept: prefix, `_`, then 16–64 base62 characters (seeded and imported ids may be shorter than ours). */
const MIN_LENGTH = 16;
const MAX_LENGTH = 64;
const PREFIX = /^[a-z][a-z0-9]{0,9}$/;

function assertPrefix(prefix: string): void {
  if (!PREFIX.test(prefix)) throw new TypeError(`invalid id prefix ${JSON.stringify(prefix)}`);
}

/**
 * Random bytes drawn from the CSPRNG in blocks and handed out once each (as `crypto.randomUUID` does with its
 * cache): a create makes three ids, and a `randomBytes` call per id was 3 % of its CPU.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** RANDOM_LENGTH base62 characters drawn by rejection sampling, so every one is uniform. */
function randomPart(): string {
  let out = '';
  while (out.length < RANDOM_LENGTH) {
    const byte = randomByte();
    // 248 = 4·62: bytes at or above it would bias the first characters of the alphabet.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** A new id such as `reg_4fZ0…`. */
export function newId(prefix: string): string {
  assertPrefix(prefix);
  return `${prefix}_${randomPart()}`;
}

/** Eight base62 characters hold any millisecond timestamp until the year 8900; three more, 238 328 ids per ms. */
const STAMP_LENGTH = 8;
const SEQUENCE_LENGTH = 3;
let lastMs = 0;
let sequence = 0;

function base62(value: number, length: number): string {
  let out = '';
  for (let rest = value; out.length < length; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out;
  return out;
}

/**
 * A new id that sorts after every id this process made before it (ALPHABET is in byte order, so string and MongoDB
 * comparisons agree): the creation time and a sequence within its millisecond, then the 22 random characters of
 * `newId`. Audit entries take it because they are listed by (`at`, `id`) and two written in one millisecond — an
 * approval and its provisioning failure — must read in the order they happened, not at random.
 */
export function newOrderedId(prefix: string): string {
  assertPrefix(prefix);
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence === 62 ** SEQUENCE_LENGTH) {
    // A millisecond ran out of numbers (or, with the clock set back, the one still in use did): borrow the next
    // millisecond for ids (never for `at`).
    lastMs += 1;
    sequence = 0;
  }
  return `${prefix}_${base62(lastMs, STAMP_LENGTH)}${base62(sequence, SEQUENCE_LENGTH)}${randomPart()}`;
}

const patterns = new Map<string, RegExp>();

/** The ids `isId` accepts for this prefix (also the OpenAPI document's pattern for such a path parameter). */
export function idPattern(prefix: string): RegExp {
  let pattern = patterns.get(prefix);
  if (!pattern) {
    assertPrefix(prefix);
    pattern = new RegExp(`^${prefix}_[0-9A-Za-z]{${MIN_LENGTH},${MAX_LENGTH}}$`);
    patterns.set(prefix, pattern);
  }
  return pattern;
}

/** Whether `value` is a well-formed id with this prefix (a malformed id in a path is a 404, never a query). */
export function isId(prefix: string, value: unknown): value is string {
  return typeof value === 'string' && idPattern(prefix).test(value);
}
