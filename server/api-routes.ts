/**
 * Every route of the public API, by tree. Mounted by api-router.ts and documented from the same lists by
 * openapi/build-document.ts, so a route added to a component's list is served, refused with 405 for other methods,
 * reachable through the default-organization tree and described in schemas/openapi.json with nothing else to edit.
 */
import type { ApiRoute } from './http/api-route.js';
import { organizationRoutes } from './components/organizations/organizations.routes.js';
import { capabilityRoutes } from './components/capabilities/capabilities.routes.js';
import { registrationRoutes } from './components/registrations/registrations.routes.js';
import { changeSetRoutes } from './components/change-sets/change-sets.routes.js';
import { policyProfileRoutes } from './components/policy-profiles/policy-profiles.routes.js';
import { templateRoutes } from './components/templates/templates.routes.js';
import { secretRoutes } from './components/secrets/secret.routes.js';
import { webhookRoutes } from './components/webhooks/webhooks.routes.js';

/** Below `/api/v1`: what the token's subject reaches before naming an organization. */
export const TOP_LEVEL_ROUTES: readonly ApiRoute[] = [...organizationRoutes];

/**
 * Below `/api/v1/organizations/:organizationId` (and, with API_DEFAULT_ORGANIZATION_ENABLED, below `/api/v1` for the
 * subject's default organization); `req.organization` is set before they run.
 */
export const ORGANIZATION_SCOPED_ROUTES: readonly ApiRoute[] = [
  ...capabilityRoutes,
  ...registrationRoutes,
  ...secretRoutes,
  ...changeSetRoutes,
  ...policyProfileRoutes,
  ...templateRoutes,
  ...webhookRoutes,
];

/** Both trees, as the router mounts them and the OpenAPI document describes them. */
export const API_ROUTES = { topLevel: TOP_LEVEL_ROUTES, organizationScoped: ORGANIZATION_SCOPED_ROUTES };

export type ApiRouteTrees = typeof API_ROUTES;
