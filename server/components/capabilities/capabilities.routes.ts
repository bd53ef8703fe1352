/** GET /capabilities: the capabilities record of the resolved organization for this caller. */
import { Router } from 'express';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { methodNotAllowed } from '../../middleware/method-not-allowed.js';
import { requireScope } from '../../middleware/require-scope.js';
import { buildCapabilities } from './capabilities.service.js';

export function createCapabilitiesRouter(deps: Pick<ApiDeps, 'config' | 'store'>): Router {
  const router = Router();
  router
    .route('/capabilities')
    .get(requireScope('registrations:read'), async (req, res) => {
      const organization = req.organization;
      // Mounted only behind organization resolution; without it there is nothing to describe.
      if (!organization || !req.principal) throw apiError('not_found', 'No such organization.');
      const registrations = await deps.store.registrations.count(organization.id);
      res.json(buildCapabilities({ organization, scopes: req.principal.scopes, registrations, config: deps.config }));
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
