/** Gives every request an id (`X-Request-Id`), reusing a well-formed inbound one, for logs and error bodies. */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Printable, short, no separators that could forge log fields or headers. */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

export function requestId(): RequestHandler {
  return (req, res, next) => {
    const inbound = req.get('x-request-id');
    req.requestId = inbound !== undefined && WELL_FORMED.test(inbound) ? inbound : randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    next();
  };
}
