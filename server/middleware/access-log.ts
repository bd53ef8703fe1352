/**
 * One access-log line per request — `reqId`, `req` (id, method, path), `res` (status), `responseTime` in ms and
 * "request completed" ("request errored" at error level for a 5xx, "request aborted" when the client went away
 * first), the line pino-http wrote and `lib/logger-terminal.ts` reads — plus `req.log`, a child logger bound to the
 * request id, made only when something asks for it.
 *
 * Written here instead of through pino-http because of what it cost: pino-http builds a child logger and wrapped
 * serializers for every request, 73 µs of a 346 µs authenticated GET (bench/service.ts with LOG_LEVEL silent vs
 * info); this is one pino call per request.
 *
 * Logged: method and path only. Query strings can carry authorization codes (`/console/callback?code=…`), request
 * headers tokens and session cookies, response headers the console's `Set-Cookie`: none of them is written.
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../../lib/logger.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The logger of this request, bound to `reqId` (absent where no access log runs: LOG_LEVEL=silent). */
    log?: Logger;
  }
}

export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ reqId: req.requestId })),
    });
    let logged = false;
    const log = (aborted: boolean) => {
      if (logged) return;
      logged = true;
      const entry = {
        reqId: req.requestId,
        req: { id: req.requestId, method: req.method, path: req.originalUrl.split('?')[0] },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
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
