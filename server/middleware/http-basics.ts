/**
 * What every listener of the service starts with (public API and internal surface alike): no `X-Powered-By`, no
 * auto-ETags (strong ETags come from revisions, DESIGN.md §1.5), the simple query parser, a request id, one access
 * log line per request, and security headers.
 */
import type express from 'express';
import helmet from 'helmet';
import type { Logger } from '../../lib/logger.js';
import { accessLog } from './access-log.js';
import { requestId } from './request-id.js';

/**
 * helmet's headers with its defaults are the same on every response (no nonces), so helmet works them out once,
 * into a recorder, and each response gets the list: its twelve chained middlewares per request cost ~2.5 % of a GET.
 */
function securityHeaders(): express.RequestHandler {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let done = false;
  helmet()({} as never, recorder as never, () => (done = true));
  if (!done || headers.length === 0) throw new Error('helmet did not set its headers synchronously');
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

export function applyHttpBasics(app: express.Express, logger: Logger): void {
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId());
  // With logging off (LOG_LEVEL=silent) even one listener per request would be pure cost.
  if (logger.isLevelEnabled('fatal')) app.use(accessLog(logger));
  app.use(securityHeaders());
}
