/**
 * What every listener of the service starts with (public API and internal surface alike): no `X-Powered-By`, no
 * auto-ETags (strong ETags come from revisions, docs/architecture.md §1.5), the simple query parser, `trust proxy` from
 * TRUST_PROXY, a request id, one access log line and the request metrics per request, security headers, and —
 * once the instance is stopping — `Connection: close` on every answer, so keep-alive clients leave as their
 * requests finish.
 */
import type express from 'express';
import helmet from 'helmet';
import type { ApiDeps } from '../deps.js';
import { compileRouteTemplates } from '../metrics/route-templates.js';
import { accessLog } from './access-log.js';
import { requestId } from './request-id.js';
import { parseTrustProxy } from './trust-proxy.js';

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

export function applyHttpBasics(
  app: express.Express,
  deps: Pick<ApiDeps, 'logger' | 'config' | 'metrics' | 'lifecycle'>,
  /** The listener's route templates, naming in the metrics requests refused before a route ran. */
  routeTemplates: readonly string[] = [],
): void {
  const { logger, metrics, lifecycle } = deps;
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const trust = parseTrustProxy(deps.config.trustProxy);
  // loadServiceConfig refused a TRUST_PROXY with problems already.
  app.set('trust proxy', 'value' in trust ? trust.value : false);
  app.use(requestId());
  // With logging off (LOG_LEVEL=silent) and no metrics even one listener per request would be pure cost.
  const logging = logger.isLevelEnabled('fatal');
  if (logging || metrics)
    app.use(accessLog(logging ? logger : undefined, metrics, metrics && compileRouteTemplates(routeTemplates)));
  app.use(securityHeaders());
  if (lifecycle)
    app.use((_req, res, next) => {
      if (lifecycle.stopping) res.setHeader('Connection', 'close');
      next();
    });
}
