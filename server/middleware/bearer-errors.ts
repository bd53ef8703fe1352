/**
 * The authentication failures of RFC 6750 §3 as AppErrors, each with its `WWW-Authenticate` challenge.
 * No token at all → a challenge WITHOUT `error` (§3.1); a bad token → `error="invalid_token"`, generic unless the
 * token is genuine (signature verified) and only expired or meant for another audience: then the description says
 * so, because the caller can fix it. Never the token itself; auth server down → 503, never 401 or "allowed".
 */
import type { AppError } from '../../lib/app-error.js';
import { apiError } from '../errors.js';

const REALM = 'gatehouse';
const AUTH_RETRY_AFTER_S = '5';

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

const GENERIC = 'The access token is invalid or expired';

/** RFC 6750 §3: error_description is printable ASCII without `"` and `\`. */
function descriptionValue(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, '?');
}

/** `description` (one sentence, no final period) names a fixable reason; without it the description is generic. */
export function invalidToken(cause?: unknown, description: string = GENERIC): AppError {
  return apiError('invalid_token', `${description}.`, {
    cause,
    headers: {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${descriptionValue(description)}"`,
    },
  });
}

export function insufficientScope(scope: string): AppError {
  return apiError('insufficient_scope', `The access token lacks the scope ${scope}.`, {
    headers: {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"`,
    },
  });
}

export function authUnavailable(cause?: unknown): AppError {
  return apiError('unavailable', 'The authorization server is unavailable; try again later.', {
    cause,
    headers: { 'Retry-After': AUTH_RETRY_AFTER_S },
  });
}
