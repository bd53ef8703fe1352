/**
 * GET /organizations: the organizations the token subject holds an API-access grant for, with `isDefault` for this
 * subject, in the list shape of every other list (ordered by creation time, then id).
 */
import { Router } from 'express';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { pageResult, parseListParams, setNextLink, type ListBinding } from '../../http/pagination.js';
import { methodNotAllowed } from '../../middleware/method-not-allowed.js';
import { createRateLimit } from '../../middleware/rate-limit.js';
import { requireScope } from '../../middleware/require-scope.js';
import { compareKeys } from '../../db/keyset-page.js';
import type { Organization } from './organizations.model.js';

export interface OrganizationView {
  id: string;
  name: string;
  plan: Organization['plan'];
  isDefault: boolean;
  createdAt: string;
}

export function createOrganizationsRouter(deps: ApiDeps): Router {
  const router = Router();
  // No organization yet: the rate limit applies per subject (the "subject" policy of createRateLimit).
  const rateLimit = createRateLimit(deps);
  router
    .route('/organizations')
    .get(rateLimit, requireScope('registrations:read'), async (req, res) => {
      const sub = req.principal?.sub;
      if (!sub)
        throw apiError('unauthorized', 'Authentication is required.', { headers: { 'WWW-Authenticate': 'Bearer' } });
      // The cursor is bound to the subject: a cursor of another caller's list is invalid here.
      const binding: ListBinding = { resource: 'organizations', organizationId: '', filters: { subject: sub } };
      const params = parseListParams(req, binding);
      const grants = await deps.store.grants.listForSubject(sub);
      const defaults = new Set(grants.filter((g) => g.isDefault).map((g) => g.organizationId));
      const organizations = (await deps.store.organizations.getMany(grants.map((g) => g.organizationId)))
        .sort(compareKeys)
        .filter((o) => !params.after || compareKeys(o, params.after) > 0)
        .slice(0, params.limit + 1);
      const { page, nextCursor } = pageResult(organizations, params, binding);
      setNextLink(res, req, deps.config.publicBaseUrl, nextCursor, params, binding);
      const data: OrganizationView[] = page.map((o) => ({
        id: o.id,
        name: o.name,
        plan: o.plan,
        isDefault: defaults.has(o.id),
        createdAt: o.createdAt.toISOString(),
      }));
      res.json({ data, nextCursor });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
