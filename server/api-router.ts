/**
 * Everything under /api/v1 after authentication and body parsing (DESIGN.md §1.2, §1.6):
 * `GET /organizations`, then `/organizations/:organizationId/…` (organization resolution → rate limit → the
 * organization-scoped routes), and the same routes without the prefix when the default-organization tree is on.
 * The reviewer/admin transitions have no route here at all.
 */
import { Router, type RequestHandler } from 'express';
import type { ApiDeps } from './deps.js';
import { createOrganizationsRouter } from './components/organizations/organizations.routes.js';
import { createCapabilitiesRouter } from './components/capabilities/capabilities.routes.js';
import { createPolicyProfilesRouter } from './components/policy-profiles/policy-profiles.routes.js';
import { createTemplatesRouter } from './components/templates/templates.routes.js';
import { createRegistrationsRouter } from './components/registrations/registrations.routes.js';
import { createChangeSetsRouter } from './components/change-sets/change-sets.routes.js';
import { resolveDefaultOrganization, resolveOrganization } from './middleware/resolve-organization.js';
import { createRateLimit } from './middleware/rate-limit.js';

/** First path segments of the organization-scoped routes (what the default-organization tree claims). */
const ORGANIZATION_SCOPED_SEGMENTS = ['registrations', 'capabilities', 'policy-profiles', 'templates'] as const;

/** The routes that live under an organization; `req.organization` is set before they run. */
function createOrganizationScopedRouter(deps: ApiDeps): Router {
  const router = Router();
  router.use(createCapabilitiesRouter(deps));
  router.use(createPolicyProfilesRouter(deps));
  router.use(createTemplatesRouter(deps));
  router.use(createRegistrationsRouter(deps));
  router.use(createChangeSetsRouter(deps));
  return router;
}

export function createApiRouter(deps: ApiDeps): Router {
  const router = Router();
  const scoped = createOrganizationScopedRouter(deps);
  const rateLimit = createRateLimit(deps);

  router.use(createOrganizationsRouter(deps));
  router.use('/organizations/:organizationId', resolveOrganization(deps), rateLimit, scoped);

  if (deps.config.defaultOrganizationEnabled) {
    const defaultTree = Router();
    defaultTree.use(resolveDefaultOrganization(deps), rateLimit, scoped);
    // Only known organization-scoped paths resolve the default organization: anything else stays a plain 404.
    const claims: RequestHandler = (req, res, next) => {
      const segment = req.path.split('/')[1] ?? '';
      if ((ORGANIZATION_SCOPED_SEGMENTS as readonly string[]).includes(segment)) defaultTree(req, res, next);
      else next();
    };
    router.use(claims);
  }
  return router;
}
