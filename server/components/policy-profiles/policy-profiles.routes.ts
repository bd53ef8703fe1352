/** GET /policy-profiles and /policy-profiles/:policyProfileId: the platform's profiles, read-only. */
import { Router } from 'express';
import type { ApiDeps } from '../../deps.js';
import { apiError } from '../../errors.js';
import { methodNotAllowed } from '../../middleware/method-not-allowed.js';
import { requireScope } from '../../middleware/require-scope.js';
import { findPolicyProfile, POLICY_PROFILES } from './policy-profiles.data.js';
import { sendPlatformDataList } from './platform-data-list.js';

export function createPolicyProfilesRouter(deps: Pick<ApiDeps, 'config'>): Router {
  const router = Router();
  router
    .route('/policy-profiles')
    .get(requireScope('registrations:read'), (req, res) => {
      sendPlatformDataList(req, res, deps.config, 'policy-profiles', POLICY_PROFILES);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/policy-profiles/:policyProfileId')
    .get(requireScope('registrations:read'), (req, res) => {
      const profile = findPolicyProfile(req.params.policyProfileId);
      if (!profile) throw apiError('not_found', 'No such policy profile.');
      res.json(profile);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
