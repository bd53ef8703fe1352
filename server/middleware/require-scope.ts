/** Route-level scope check (docs/architecture.md §1.2): 403 `insufficient_scope` naming the missing scope (RFC 6750 §3.1). */
import type { RequestHandler } from 'express';
import type { Scope } from '../principal.js';
import { insufficientScope, missingToken } from './bearer-errors.js';

export function requireScope(scope: Scope): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal) next(missingToken());
    else if (!req.principal.scopes.has(scope)) next(insufficientScope(scope));
    else next();
  };
}
