/** For a known path with the wrong method: 405 `method_not_allowed` with `Allow` (RFC 9110 §15.5.6). */
import type { RequestHandler } from 'express';
import { apiError } from '../errors.js';

export function methodNotAllowed(allowed: string[]): RequestHandler {
  const allow = [...new Set(allowed.map((m) => m.toUpperCase()))].join(', ');
  return (req, _res, next) => {
    next(
      apiError('method_not_allowed', `${req.method} is not allowed here; use ${allow}.`, { headers: { Allow: allow } }),
    );
  };
}
