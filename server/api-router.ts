/**
 * Everything under /api/v1 after authentication and body parsing (docs/architecture.md §1.2, §1.6): the top-level routes
 * (`GET /organizations`, rate limited per subject), then `/organizations/:organizationId/…` (organization
 * resolution → rate limit → the organization-scoped routes), and the same routes without the prefix when the
 * default-organization tree is on. Both lists are in api-routes.ts; the reviewer/admin transitions have no route here.
 */
import { Router, type RequestHandler } from 'express';
import type { ApiDeps } from './deps.js';
import { ORGANIZATION_SCOPED_ROUTES, TOP_LEVEL_ROUTES } from './api-routes.js';
import { mountRoutes } from './http/mount-routes.js';
import { resolveDefaultOrganization, resolveOrganization } from './middleware/resolve-organization.js';
import { createRateLimit } from './middleware/rate-limit.js';

/** The first path segments of the organization-scoped routes: what the default-organization tree answers for. */
function firstSegments(routes: readonly { path: string }[]): ReadonlySet<string> {
  return new Set(routes.map((route) => route.path.split('/')[1] ?? ''));
}

export function createApiRouter(deps: ApiDeps): Router {
  const router = Router();
  const scoped = mountRoutes(ORGANIZATION_SCOPED_ROUTES, deps);
  const rateLimit = createRateLimit(deps);

  // No organization yet: the rate limit applies per subject (the "subject" policy of createRateLimit).
  router.use(mountRoutes(TOP_LEVEL_ROUTES, deps, [createRateLimit(deps)]));
  router.use('/organizations/:organizationId', resolveOrganization(deps), rateLimit, scoped);

  if (deps.config.defaultOrganizationEnabled) {
    const defaultTree = Router();
    defaultTree.use(resolveDefaultOrganization(deps), rateLimit, scoped);
    // Only organization-scoped paths resolve the default organization: anything else stays a plain 404.
    const segments = firstSegments(ORGANIZATION_SCOPED_ROUTES);
    const claims: RequestHandler = (req, res, next) => {
      if (segments.has(req.path.split('/')[1] ?? '')) defaultTree(req, res, next);
      else next();
    };
    router.use(claims);
  }
  return router;
}
