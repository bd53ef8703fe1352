/**
 * What every listener of the service starts with (public API and internal surface alike): no `X-Powered-By`, no
 * auto-ETags (strong ETags come from revisions, DESIGN.md §1.5), the simple query parser, a request id, one access
 * log line per request, and security headers.
 */
import type express from 'express';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../../lib/logger.js';
import { requestId } from './request-id.js';

/**
 * The access log's view of a request: method and path only. Query strings can carry authorization codes
 * (`/console/callback?code=…`) and headers carry tokens and session cookies, so neither is logged.
 */
function requestForLog(req: { id?: unknown; method?: string; url?: string }) {
  return { id: req.id, method: req.method, path: (req.url ?? '').split('?')[0] };
}

/**
 * The access log's view of a response: its status only. pino-http's default adds every response header, and the
 * console's answers carry `Set-Cookie` with a live session (serializing them also cost ~3 % of a request's CPU).
 */
function responseForLog(res: { statusCode?: number }) {
  return { statusCode: res.statusCode };
}

/**
 * helmet's headers with its defaults are the same on every response (no nonces), so helmet works them out once,
 * into a recorder, and each response gets the list: its twelve chained middlewares per request cost ~2.5 % of a GET.
 */
function securityHeaders(): RequestHandler {
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
  // With logging off (LOG_LEVEL=silent) the per-request child logger would be pure cost.
  if (logger.isLevelEnabled('fatal')) {
    app.use(
      pinoHttp({
        logger,
        genReqId: (req) => (req as express.Request).requestId,
        quietReqLogger: true,
        serializers: { req: requestForLog, res: responseForLog },
        customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      }),
    );
  }
  app.use(securityHeaders());
}
