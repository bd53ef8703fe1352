/**
 * Operations on the caller's own record (`/me`, `/account`, `/users/me`, `/profile`, `/whoami`, `/userinfo`) and the
 * operations that sign a user up or in, by their path, operationId and summary: the model's "me-like" reads tell an
 * identity who it is, sign-ups create users, sign-ins hand out credentials.
 */
import { wordsOf } from '../operation-class.js';

const SELF_SEGMENTS = new Set([
  'me',
  'self',
  'myself',
  'mine',
  'my',
  'account',
  'profile',
  'whoami',
  'userinfo',
  'current',
  'currentuser',
  'current-user',
  'current_user',
  'my-account',
  'myaccount',
  'my_account',
  'my-profile',
  'my_profile',
]);

/** Whether a static path segment names the caller (not a collection: `accounts` and `profiles` are collections). */
export const isSelfSegment = (segment: string): boolean => SELF_SEGMENTS.has(segment.toLowerCase());

const SIGN_IN = /^(login|logon|signin|authenticate|authentication|auth|session|sessions|token|tokens|jwt)$/;
const SIGN_UP = /^(register|registration|signup|join|enrol|enroll|enrollment)$/;
const SIGN_OUT = /^(logout|logoff|signout)$/;

function namesOne(texts: (string | undefined)[], pattern: RegExp): boolean {
  return texts.some((text) => {
    if (typeof text !== 'string') return false;
    const words = wordsOf(text);
    const joined = words.map((word, i) => `${word}${words[i + 1] ?? ''}`);
    return words.some((w) => pattern.test(w)) || joined.some((w) => pattern.test(w));
  });
}

export interface NamedOperation {
  method: string;
  path: string;
  operationId?: string;
  summary?: string;
}

/** A POST that signs a user in (login, token, session): it answers a credential. */
export function isSignIn(operation: NamedOperation): boolean {
  if (operation.method.toUpperCase() !== 'POST') return false;
  const texts = [operation.path, operation.operationId, operation.summary];
  return namesOne(texts, SIGN_IN) && !namesOne(texts, SIGN_UP) && !namesOne(texts, SIGN_OUT);
}

const USERS = /^(user|users|account|accounts|member|members|customer|customers|me|signup)$/;

/** Whether a name starts with one of `pattern`'s words (`register`, `registerUser`, `signUp`). */
function startsWith(text: string | undefined, pattern: RegExp): boolean {
  const [first, second = ''] = wordsOf(text ?? '');
  return first !== undefined && (pattern.test(first) || pattern.test(`${first}${second}`));
}

/**
 * A POST that registers a new user (register, sign-up, join): its path's last fixed segment says so (`/register`,
 * `/auth/sign-up`), or its operationId starts with it (`registerUser`, `signUp`). A word further in counts only beside
 * users or accounts, in the operationId or the summary: `submitRegistration` of an API whose objects are registrations
 * (of clients, of events) signs no one up, nor does "Register a webhook".
 */
export function isSignUp(operation: NamedOperation): boolean {
  if (operation.method.toUpperCase() !== 'POST') return false;
  const lastFixed = operation.path
    .split('/')
    .filter((segment) => segment.length > 0 && !segment.startsWith('{'))
    .at(-1);
  if (namesOne([lastFixed], SIGN_UP) || startsWith(operation.operationId, SIGN_UP)) return true;
  return [operation.operationId, operation.summary].some(
    (text) => namesOne([text], SIGN_UP) && namesOne([text], USERS),
  );
}

const QUERY_ONLY =
  /^(lookup|search|find|query|check|verify|validate|validation|available|availability|exists|preview|estimate|quote|count)$/;

/** A POST that only looks something up or validates it (`/users/lookup`, `checkAvailability`): it changes nothing. */
export function isQueryOnly(operation: NamedOperation): boolean {
  if (operation.method.toUpperCase() !== 'POST') return false;
  return namesOne([operation.path.split('/').filter(Boolean).at(-1), operation.operationId], QUERY_ONLY);
}
