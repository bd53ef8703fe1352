/**
 * The ONE error handler: AppErrors become the envelope with their status and headers; body-parser errors are
 * mapped to their codes; anything else is logged under the request id and answered with a bare 500.
 */
import type { ErrorRequestHandler } from 'express';
import { isAppError, type AppError } from '../../lib/app-error.js';
import { errorChain } from '../../lib/error-chain.js';
import type { Logger } from '../../lib/logger.js';
import { apiError } from '../errors.js';
import { errorEnvelope } from './error-envelope.js';
import { fromBodyParserError } from './json-body.js';

/** Seconds a client should wait before retrying a 503 when the thrower gave no better figure. */
const DEFAULT_RETRY_AFTER_S = '5';

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const known: AppError | undefined = isAppError(err) ? err : fromBodyParserError(err);
    const log = (req as { log?: Logger }).log ?? logger;
    const error = known ?? apiError('internal_error', 'An unexpected error occurred.');
    if (!known) log.error({ err, requestId: req.requestId }, 'unhandled error');
    else if (error.status >= 500)
      // The cause as data (code, address …): logged as is, an Error's cause came out as `{}`.
      log.warn({ code: error.code, cause: errorChain(error.cause), requestId: req.requestId }, error.message);
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    if (error.status === 503 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', DEFAULT_RETRY_AFTER_S);
    res.status(error.status).json(errorEnvelope(error.code, error.message, req.requestId, error.fields));
  };
}
