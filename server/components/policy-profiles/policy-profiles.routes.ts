/** GET /policy-profiles and /policy-profiles/:id: the built-in profiles and those the seed file declares, read-only. */
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { apiError } from '../../errors.js';
import { allPolicyProfiles, findPolicyProfile } from './policy-profiles.data.js';
import { sendPlatformDataList } from './platform-data-list.js';

const POLICY_PROFILE_SCHEMA = apiSchemaId('policy-profile');

export const policyProfileRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/policy-profiles',
    scope: 'registrations:read',
    handler: (deps) => (req, res) =>
      sendPlatformDataList(req, res, deps.config, 'policy-profiles', allPolicyProfiles()),
    doc: {
      operationId: 'listPolicyProfiles',
      summary: 'List policy profiles',
      tag: 'Policy profiles',
      list: {},
      response: { description: 'The policy profiles visible to the organization.', schema: POLICY_PROFILE_SCHEMA },
    },
  },
  {
    method: 'get',
    path: '/policy-profiles/:id',
    scope: 'registrations:read',
    handler: () => (req, res) => {
      const profile = findPolicyProfile(String(req.params.id));
      if (!profile) throw apiError('not_found', 'No such policy profile.');
      res.json(profile);
    },
    doc: {
      operationId: 'getPolicyProfile',
      summary: 'Read a policy profile',
      tag: 'Policy profiles',
      pathParams: { id: 'The policy profile (`pp_…`).' },
      response: { description: 'The policy profile.', schema: POLICY_PROFILE_SCHEMA },
    },
  },
];
