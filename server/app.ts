/**
 * The registration service's HTTP application (docs/architecture.md §1): request id → logging and metrics → security headers
 * → health → OpenAPI document → /api/v1 (CORS → authenticate → JSON bodies → the API router) → 404 → the one
 * error handler. Authentication and readiness share one view of the authorization server. `createApp` never
 * listens; `main.ts` does.
 */
import express from 'express';
import { applyHttpBasics } from './middleware/http-basics.js';
import type { ApiDeps } from './deps.js';
import { createApiRouter } from './api-router.js';
import { ORGANIZATION_SCOPED_ROUTES, TOP_LEVEL_ROUTES } from './api-routes.js';
import { createHealthRouter } from './health/health.routes.js';
import { createAuthenticate } from './middleware/authenticate.js';
import { createAuthorizationServer } from './middleware/authorization-server.js';
import { cors } from './middleware/cors.js';
import { errorHandler } from './middleware/error-handler.js';
import { jsonBody } from './middleware/json-body.js';
import { notFound } from './middleware/not-found.js';
import { loadOpenApiDocument } from './openapi/document.js';
import { configureCursorSecret } from './http/pagination.js';

/** Every route of /api/v1 as a full template (metrics name a refused request by the route it was meant for). */
function apiRouteTemplates(defaultOrganization: boolean): string[] {
  return [
    ...TOP_LEVEL_ROUTES.map((route) => `/api/v1${route.path}`),
    ...ORGANIZATION_SCOPED_ROUTES.map((route) => `/api/v1/organizations/:organizationId${route.path}`),
    ...(defaultOrganization ? ORGANIZATION_SCOPED_ROUTES.map((route) => `/api/v1${route.path}`) : []),
  ];
}

export function createApp(deps: ApiDeps): express.Express {
  const app = express();
  configureCursorSecret(deps.config.cursorSecret);
  applyHttpBasics(app, deps, apiRouteTemplates(deps.config.defaultOrganizationEnabled));
  const authorizationServer = createAuthorizationServer(deps.config, deps.logger);

  app.use(createHealthRouter(deps, authorizationServer));

  const openApi = JSON.stringify(loadOpenApiDocument());
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').send(openApi);
  });

  app.use(
    '/api/v1',
    cors(deps.config.corsAllowedOrigins),
    createAuthenticate(deps, { authorizationServer }),
    ...jsonBody(),
    createApiRouter(deps),
  );

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
