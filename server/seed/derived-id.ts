/**
 * Stable ids for seed entries that name none, so loading the same file twice upserts the same records
 * (idempotent bootstrap) instead of creating copies: prefix + 22 base62 characters of a SHA-256.
 */
import { createHash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function derivedId(prefix: string, ...parts: string[]): string {
  let n = BigInt(
    `0x${createHash('sha256')
      .update(JSON.stringify([prefix, ...parts]))
      .digest('hex')}`,
  );
  let out = '';
  for (let i = 0; i < 22; i += 1) {
    out += ALPHABET[Number(n % 62n)];
    n /= 62n;
  }
  return `${prefix}_${out}`;
}
