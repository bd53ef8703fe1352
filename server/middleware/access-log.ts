/**
 * One access-log line per request — `reqId`, `req` (id, method, path), `res` (status), `responseTime` in ms and
 * "request completed" ("request errored" at error level for a 5xx, "request aborted" when the client went away
 * first), the line pino-http wrote and `lib/logger-terminal.ts` reads — with the client's address (`client`: the
 * peer, or X-Forwarded-For's entry when TRUST_PROXY trusts the peer) and the token's subject (`sub`, null without
 * one) on every line; plus `req.log`, a child logger bound to the request id, made only when something asks for it.
 * The same moment feeds the request metrics (route template, method, status, duration).
 *
 * Written here instead of through pino-http because of what it cost: pino-http builds a child logger and wrapped
 * serializers for every request, 73 µs of a 346 µs authenticated GET (bench/service.ts with LOG_LEVEL silent vs
 * info); this is one pino call per request.
 *
 * Logged: method and path only. Query strings can carry authorization codes (`/console/callback?code=…`), request
 * headers tokens and session cookies, response headers the console's `Set-Cookie`: none of them is written.
 */
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../../lib/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import type { RouteTemplates } from '../metrics/route-templates.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The logger of this request, bound to `reqId` (absent where no access log runs: LOG_LEVEL=silent). */
    log?: Logger;
  }
}

/** Ids in a mount path (`/api/v1/organizations/org_…`): the organization's, and any other prefixed id. */
const ORGANIZATION_ID = /\/org_[A-Za-z0-9]{16,}(?=\/|$)/g;
const PREFIXED_ID = /\/[a-z]{2,4}_[A-Za-z0-9]{16,}(?=\/|$)/g;

/**
 * The route template of an answered request (`/api/v1/organizations/:organizationId/registrations/:id`): the
 * matched route's own pattern under its mount path with the ids put back as parameters; for a request refused
 * before any route ran, the listener's template its path is an instance of; else `unmatched` (a 404), so metrics
 * never get a label per unknown path.
 */
function routeTemplate(req: Request, templates?: RouteTemplates): string {
  const path = ((req as { route?: unknown }).route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return templates?.match(req.originalUrl.split('?')[0]) ?? 'unmatched';
  const base = req.baseUrl.replace(ORGANIZATION_ID, '/:organizationId').replace(PREFIXED_ID, '/:id');
  return `${base}${path === '/' && base ? '' : path}`;
}

export function accessLog(logger: Logger | undefined, metrics?: Metrics, templates?: RouteTemplates): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    let child: Logger | undefined;
    if (logger)
      Object.defineProperty(req, 'log', {
        configurable: true,
        get: () => (child ??= logger.child({ reqId: req.requestId })),
      });
    let logged = false;
    const log = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      const elapsed = performance.now() - started;
      metrics?.request(routeTemplate(req, templates), req.method, res.statusCode, elapsed / 1000);
      if (!logger) return;
      const entry = {
        reqId: req.requestId,
        req: { id: req.requestId, method: req.method, path: req.originalUrl.split('?')[0] },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(elapsed),
        client: req.ip,
        sub: req.principal?.sub ?? null,
      };
      if (aborted) logger.warn(entry, 'request aborted');
      else if (res.statusCode >= 500) logger.error(entry, 'request errored');
      else logger.info(entry, 'request completed');
    };
    res.once('finish', () => log(false));
    res.once('close', () => log(!res.writableFinished));
    next();
  };
}
