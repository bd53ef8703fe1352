/**
 * How a sign-in answered, for checks that try passwords: whether it signed in (the answer stands for a success and
 * carries a token or a session cookie), the session values to redact, and whether the target throttles or locks
 * sign-ins (the check must stop there).
 */
import type { Operation, ProbeResponse } from '../../scanner/api.js';
import { parseAnswer } from '../../scanner/graphql/graphql-request.js';
import { answered, answerStatus } from './graphql-answer.js';
import { sameAnswer } from './answer-shape.js';

const TOKEN_KEY =
  /^(token|access_?token|id_?token|refresh_?token|auth_?token|jwt|bearer|session(_?(id|token|key))?|sid|api_?key)$/i;
const LOCKED =
  /\block(ed|out)\b|too many (failed )?(attempts|sign-?ins|log-?ins|logins|requests|tries)|temporar(il)?y (blocked|disabled|suspended)|try again (later|in)|captcha|account (is )?(suspended|disabled)/i;

function collect(value: unknown, key: string, into: string[], depth: number): void {
  if (depth > 5) return;
  if (typeof value === 'string') {
    if (TOKEN_KEY.test(key) && value.length > 0) into.push(value);
    return;
  }
  if (Array.isArray(value)) for (const item of value) collect(item, key, into, depth + 1);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) collect(v, k, into, depth + 1);
}

const cookieName = (cookie: string): string => cookie.split('=')[0].trim().toLowerCase();

/** The tokens an answer carries (JSON values under token-like keys) and the values of the cookies it sets. */
export function sessionValues(response: ProbeResponse): string[] {
  const values: string[] = [];
  try {
    collect(JSON.parse(response.body) as unknown, '', values, 0);
  } catch {
    // Not JSON: only cookies can carry the session.
  }
  for (const cookie of response.setCookies) {
    const value = /^[^=;]+=([^;]*)/.exec(cookie)?.[1];
    if (value) values.push(value);
  }
  return [...new Set(values)];
}

/**
 * What in the answer is a session the failed sign-in `control` did not get: a token, or a cookie the control was not
 * set (a CSRF or tracking cookie every answer sets is no session). Empty when there is none.
 */
export function newSession(response: ProbeResponse, control: ProbeResponse): string[] {
  const tokens: string[] = [];
  try {
    collect(JSON.parse(response.body) as unknown, '', tokens, 0);
  } catch {
    // Not JSON: only cookies can carry the session.
  }
  const controlCookies = new Set(control.setCookies.map(cookieName));
  const cookies = response.setCookies.filter((c) => !controlCookies.has(cookieName(c))).map(cookieName);
  return [...tokens.map(() => 'a token'), ...cookies.map((name) => `a ${name} cookie`)];
}

/**
 * Whether the target refuses to go on: 429 or 423 (Locked), or a refusal that says the account is locked or the
 * sign-ins throttled. A sign-in that succeeded is never one (its user object may well say `"locked": false`).
 */
export function throttled(response: ProbeResponse, operation: Operation): boolean {
  const status = answerStatus(response, operation);
  if (status === 429 || status === 423) return true;
  return status >= 400 && LOCKED.test(response.body.slice(0, 2000));
}

/**
 * Whether the answer signed the user in: it stands for a success, carries a session the failed `control` did not
 * get, and — when a sign-in known to be good was seen — has that answer's shape (same status, JSON keys and types).
 */
export function signedIn(
  response: ProbeResponse,
  operation: Operation,
  control: ProbeResponse,
  knownGood?: ProbeResponse,
): boolean {
  if (!answered(response, operation) || newSession(response, control).length === 0) return false;
  return knownGood ? sameAnswer(response, knownGood) : true;
}

/** A refusal in a few words: its status and the message it gives — a GraphQL error's message alone (its 200 says nothing). */
export function refusal(response: ProbeResponse, operation: Operation): string {
  const error = operation.graphql ? parseAnswer(response.body)?.errors[0]?.message : undefined;
  if (error) return `"${error.slice(0, 80)}"`;
  const status = answerStatus(response, operation);
  let message: unknown;
  try {
    const body = JSON.parse(response.body) as Record<string, unknown>;
    message = body.error ?? body.message;
  } catch {
    // Not JSON: the status says it.
  }
  return typeof message === 'string' && message !== '' ? `${status} "${message.slice(0, 80)}"` : String(status);
}
