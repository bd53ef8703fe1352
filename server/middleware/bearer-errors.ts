/**
 * The authentication failures of RFC 6750 §3 as AppErrors, each with its `WWW-Authenticate` challenge.
 * No token at all → a challenge WITHOUT `error` (§3.1); a bad token → `error="invalid_token"` with a generic
 * description (never the reason: it would help an attacker); auth server down → 503, never 401 or "allowed".
 */
import type { AppError } from '../../lib/app-error.js';
import { apiError } from '../errors.js';

export const REALM = 'gatehouse';
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

export function invalidToken(cause?: unknown): AppError {
  return apiError('invalid_token', 'The access token is invalid or expired.', {
    cause,
    headers: {
      'WWW-Authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="The access token is invalid or expired"`,
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
