/**
 * The authentication failures of RFC 6750 §3 as AppErrors, each with its `WWW-Authenticate` challenge.
 * No token at all → a challenge WITHOUT `error` (§3.1); a refused token → `error="invalid_token"` with an
 * `error_description` naming the rule it failed (`audience`, `expired`, …), so an operator or a client can tell a
 * wrong audience from a trailing slash on the issuer without reading code. Values are named only where the token is
 * genuine (its signature verified, or the authorization server answered for it); the token itself never is.
 * Authorization server down → 503, never 401 or "allowed". Every refusal carries its rule with the expected and
 * received values (`refusalOf`): authenticate.ts logs them at debug level and counts them by rule.
 */
import type { AppError } from '../../lib/app-error.js';
import { apiError } from '../errors.js';

const REALM = 'gatehouse';
const AUTH_RETRY_AFTER_S = '5';

/** The rules a token can fail (401), or the reasons the authorization server could not decide (503). */
type RefusalRule =
  | 'audience'
  | 'issuer'
  | 'expired'
  | 'not_yet_valid'
  | 'unknown_key'
  | 'signature'
  | 'algorithm'
  | 'token_type'
  | 'claims'
  | 'malformed'
  | 'inactive'
  | 'token_kind'
  | 'discovery_unreachable'
  | 'jwks_unreachable'
  | 'introspection_unreachable';

export interface Refusal {
  rule: RefusalRule;
  /** What this service expects (an audience, an issuer, the accepted algorithms …). */
  expected?: string | string[];
  /** What the token (or the authorization server's answer) had; absent when it had nothing there. */
  got?: string | string[];
}

const refusals = new WeakMap<AppError, Refusal>();

/** The refusal an authentication error carries, if it is one. */
export function refusalOf(error: AppError): Refusal | undefined {
  return refusals.get(error);
}

export function missingToken(): AppError {
  return apiError('unauthorized', 'A bearer token is required.', {
    headers: { 'WWW-Authenticate': `Bearer realm="${REALM}"` },
  });
}

export function malformedAuthorization(): AppError {
  return apiError('invalid_request', 'The Authorization header must be `Bearer <token>`.', {
    headers: { 'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_request"` },
  });
}

/** RFC 6750 §3: error_description is printable ASCII without `"` and `\`. */
function descriptionValue(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, '?');
}

const list = (value: string | string[] | undefined) => (value === undefined ? '(none)' : [value].flat().join(', '));

/** The description of a refusal: the rule first, then what a caller can act on (one sentence, no final period). */
function describe(refusal: Refusal, named: boolean): string {
  const { rule } = refusal;
  switch (rule) {
    case 'audience':
      return named
        ? `audience: the access token is for ${list(refusal.got)}, not ${list(refusal.expected)}`
        : 'audience: the access token is not for this API';
    case 'issuer':
      return named
        ? `issuer: the access token was issued by ${list(refusal.got)}, not ${list(refusal.expected)}`
        : 'issuer: the access token was issued by another authorization server';
    case 'expired':
      return `expired: the access token expired${refusal.got ? ` at ${list(refusal.got)}` : ''}`;
    case 'not_yet_valid':
      return `not_yet_valid: the access token is not valid before ${list(refusal.got)}`;
    case 'unknown_key':
      return 'unknown_key: no signing key of the authorization server has this key id';
    case 'signature':
      return 'signature: the signature of the access token does not verify';
    case 'algorithm':
      return `algorithm: the access token is signed with an algorithm not accepted here (${list(refusal.expected)})`;
    case 'token_type':
      return 'token_type: the token is not an access token (at+jwt)';
    case 'claims':
      return `claims: the access token lacks ${list(refusal.expected)}`;
    case 'malformed':
      return 'malformed: the access token cannot be read';
    case 'inactive':
      return 'inactive: the authorization server says the access token is not active';
    case 'token_kind':
      return `token_kind: ${list(refusal.got)} access tokens are not accepted here`;
    default:
      return `${rule}: the access token cannot be checked now`;
  }
}

/**
 * A refused token (401). `named`: the token is genuine (signature verified, or introspected), so its audience or
 * issuer may be shown to its bearer; for anything else only the rule is.
 */
export function invalidToken(refusal: Refusal, options: { cause?: unknown; named?: boolean } = {}): AppError {
  const description = describe(refusal, options.named ?? false);
  const error = apiError('invalid_token', `The access token was refused (${description}).`, {
    cause: options.cause,
    headers: {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${descriptionValue(description)}"`,
    },
  });
  refusals.set(error, refusal);
  return error;
}

export function insufficientScope(scope: string): AppError {
  return apiError('insufficient_scope', `The access token lacks the scope ${scope}.`, {
    headers: {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"`,
    },
  });
}

/** The authorization server could not decide (503); `refusal` says which part of it (discovery, JWKS, introspection). */
export function authUnavailable(refusal: Refusal, cause?: unknown): AppError {
  const error = apiError('unavailable', 'The authorization server is unavailable; try again later.', {
    cause,
    headers: { 'Retry-After': AUTH_RETRY_AFTER_S },
  });
  refusals.set(error, refusal);
  return error;
}
