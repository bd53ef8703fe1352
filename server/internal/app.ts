/**
 * The internal (reviewer/admin) surface (docs/architecture.md §1.2, §1.4) as its own Express app for INTERNAL_PORT — never
 * mounted on the public listener. Request id → logging and metrics → security headers → health → /metrics
 * (Prometheus, METRICS_ENABLED; unauthenticated, like health: this listener must not be reachable from outside)
 * → /internal/v1 (authenticate with the internal audience → JSON bodies → routes, each behind a `gatehouse:*` scope
 * check) → /console → 404 → the same error envelope as the public API. `createInternalApp` never listens; `main.ts`
 * does.
 */
import express from 'express';
import { applyHttpBasics } from '../middleware/http-basics.js';
import { createHealthRouter } from '../health/health.routes.js';
import { createAuthenticate } from '../middleware/authenticate.js';
import { createAuthorizationServer, type AuthorizationServer } from '../middleware/authorization-server.js';
import { createMetricsRouter } from '../metrics/metrics.routes.js';
import { errorHandler } from '../middleware/error-handler.js';
import { jsonBody } from '../middleware/json-body.js';
import { notFound } from '../middleware/not-found.js';
import type { InternalDeps } from './internal-deps.js';
import { createQueueRouter } from './routes/queue.routes.js';
import { createAuditRouter } from './routes/audit.routes.js';
import { createInternalRegistrationsRouter } from './routes/registrations.routes.js';
import { createInternalOrganizationsRouter } from './routes/organizations.routes.js';
import { createConsoleRouter } from './console/console.router.js';

export type { InternalDeps } from './internal-deps.js';

/** Everything under /internal/v1: authenticated, then every route checks its own scope (deny by default). */
function createInternalApiRouter(deps: InternalDeps, authorizationServer: AuthorizationServer): express.Router {
  // Internal tokens are for this surface only: INTERNAL_AUTH_AUDIENCE, never the public API's (RFC 9068 §4).
  const authenticate = createAuthenticate(deps, { surface: 'internal', authorizationServer });
  const router = express.Router();
  router.use(authenticate, ...jsonBody());
  router.use(createQueueRouter(deps));
  router.use(createAuditRouter(deps));
  router.use(createInternalOrganizationsRouter(deps));
  router.use(createInternalRegistrationsRouter(deps));
  return router;
}

export function createInternalApp(deps: InternalDeps): express.Express {
  const app = express();
  applyHttpBasics(app, deps);
  const authorizationServer = createAuthorizationServer(deps.config, deps.logger);
  app.use(createHealthRouter(deps, authorizationServer));
  if (deps.metrics) app.use(createMetricsRouter(deps.metrics));
  app.use('/internal/v1', createInternalApiRouter(deps, authorizationServer));
  if (deps.console) app.use('/console', createConsoleRouter({ ...deps, ...deps.console }));

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
