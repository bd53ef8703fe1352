/**
 * What every listener of the service starts with (public API and internal surface alike): no `X-Powered-By`, no
 * auto-ETags (strong ETags come from revisions, DESIGN.md §1.5), the simple query parser, a request id, one access
 * log line per request, and security headers.
 */
import type express from 'express';
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
        serializers: { req: requestForLog },
        customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      }),
    );
  }
  app.use(helmet());
}
