/**
 * The registration service's HTTP application (DESIGN.md §1): request id → logging → security headers →
 * health → OpenAPI document → /api/v1 (authenticate → JSON bodies → the API router) → 404 → the one error
 * handler. `createApp` never listens; `main.ts` does.
 */
import express from 'express';
import { applyHttpBasics } from './middleware/http-basics.js';
import type { ApiDeps } from './deps.js';
import { createApiRouter } from './api-router.js';
import { createHealthRouter } from './health/health.routes.js';
import { createAuthenticate } from './middleware/authenticate.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { notFound } from './middleware/not-found.js';
import { loadOpenApiDocument } from './openapi/document.js';
import { configureCursorSecret } from './http/pagination.js';

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  configureCursorSecret(deps.config.cursorSecret);
  applyHttpBasics(app, deps.logger);

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
