/**
 * The registration service's HTTP application (DESIGN.md §1): request id → logging → security headers →
 * health → OpenAPI document → /api/v1 (authenticate → JSON bodies → the API router) → 404 → the one error
 * handler. `createApp` never listens; `main.ts` does.
 */
import express from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { ApiDeps } from './deps.js';
import { createApiRouter } from './api-router.js';
import { createHealthRouter } from './health/health.routes.js';
import { createAuthenticate } from './middleware/authenticate.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { notFound } from './middleware/not-found.js';
import { requestId } from './middleware/request-id.js';
import { loadOpenApiDocument } from './openapi/document.js';

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Strong ETags come from revisions (DESIGN.md §1.5), never from hashing bodies.
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestId());
  // With logging off (LOG_LEVEL=silent) the per-request child logger would be pure cost.
  if (deps.logger.isLevelEnabled('fatal')) {
    app.use(
      pinoHttp({
        logger: deps.logger,
        genReqId: (req) => (req as express.Request).requestId,
        quietReqLogger: true,
        customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      }),
    );
  }
  app.use(helmet());

  app.use(createHealthRouter(deps));

  const openApi = JSON.stringify(loadOpenApiDocument());
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openApi);
  });

  app.use('/api/v1', createAuthenticate(deps), ...jsonBody(), createApiRouter(deps));

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
