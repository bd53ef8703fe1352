/** GET /capabilities: the capabilities record of the resolved organization for this caller. */
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { apiError } from '../../errors.js';
import { buildCapabilities } from './capabilities.service.js';

export const capabilityRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/capabilities',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
      const organization = req.organization;
      // Mounted only behind organization resolution; without it there is nothing to describe.
      if (!organization || !req.principal || !req.grant) throw apiError('not_found', 'No such organization.');
      const registrations = await deps.store.registrations.count(organization.id);
      const { scopes } = req.principal;
      res.json(buildCapabilities({ organization, scopes, role: req.grant.role, registrations, config: deps.config }));
    },
    doc: {
      operationId: 'getCapabilities',
      summary: 'Read the capabilities of the organization for this caller',
      tag: 'Capabilities',
      response: {
        description: 'Plan gating, granted scopes, client types, profiles, platform policy, templates and rate limits.',
        schema: apiSchemaId('capabilities'),
      },
    },
  },
];
