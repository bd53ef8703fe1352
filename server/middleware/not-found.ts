/** The catch-all after every route: an unknown path is a 404 `not_found` in the envelope, never Express's HTML. */
import type { RequestHandler } from 'express';
import { apiError } from '../errors.js';

export function notFound(): RequestHandler {
  return (_req, _res, next) => {
    next(apiError('not_found', 'No such resource.'));
  };
}
