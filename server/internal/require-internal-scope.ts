/**
 * Scope checks of the internal surface: `gatehouse:review` for review decisions, `gatehouse:admin` for
 * organization management, API Access, suspend/unsuspend/deprecate; reading needs either. Deny by default: a route
 * without one of these checks is a bug (the internal app's test walks every route without scopes).
 */
import type { RequestHandler } from 'express';
import { insufficientScope, missingToken } from '../middleware/bearer-errors.js';

type InternalScope = 'gatehouse:review' | 'gatehouse:admin';

/** Passes when the token carries at least one of `scopes`; 403 `insufficient_scope` naming them otherwise. */
function requireAnyScope(...scopes: InternalScope[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal) next(missingToken());
    else if (!scopes.some((scope) => req.principal!.scopes.has(scope))) next(insufficientScope(scopes.join(' ')));
    else next();
  };
}

export const canRead = requireAnyScope('gatehouse:review', 'gatehouse:admin');
export const canReview = requireAnyScope('gatehouse:review');
export const canAdminister = requireAnyScope('gatehouse:admin');
