/**
 * Where a sign-in's answer holds the credential (`token`, `access_token`, `auth_token`, `data.jwt`…, or a pointer the
 * user gave) and when it expires (`expires_in` seconds, `expires_at`, or the token's own `exp` claim).
 */
import { parseUnverified } from '../../compact-jwt.js';
import { getPointer } from '../json-pointer.js';

const TOKEN_NAMES = /^(access_?token|auth_?token|id_?token|token|jwt|bearer|session_?token|api_?key|key)$/i;

/** The token in a JSON answer: at `pointer` when given, else the first string field named like one, breadth first. */
export function tokenIn(answer: unknown, pointer?: string): { token: string; pointer: string } | undefined {
  if (pointer !== undefined) {
    const value = getPointer(answer, pointer);
    return typeof value === 'string' && value !== '' ? { token: value, pointer } : undefined;
  }
  const queue: { value: unknown; at: string }[] = [{ value: answer, at: '' }];
  while (queue.length > 0) {
    const { value, at } = queue.shift()!;
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [key, sub] of Object.entries(value as Record<string, unknown>)) {
      const here = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (typeof sub === 'string' && sub.length >= 8 && TOKEN_NAMES.test(key)) return { token: sub, pointer: here };
      if (sub && typeof sub === 'object') queue.push({ value: sub, at: here });
    }
  }
  return undefined;
}

/** When the token expires (ms since the epoch): the answer's `expires_in`/`expiresIn`, else the JWT's `exp`. */
export function expiryOf(answer: unknown, token: string, now = Date.now()): number | undefined {
  const record = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const seconds = record.expires_in ?? record.expiresIn ?? record.expires;
  if (typeof seconds === 'number' && seconds > 0 && seconds < 10 * 365 * 86400) return now + seconds * 1000;
  const parsed = parseUnverified(token);
  const exp = parsed.ok ? parsed.jwt.claims?.exp : undefined;
  return typeof exp === 'number' ? exp * 1000 : undefined;
}
