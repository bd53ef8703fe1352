/**
 * GET /organizations: the organizations the token subject holds an API-access grant for, with `isDefault` for this
 * subject, in the list shape of every other list (ordered by creation time, then id).
 */
import type { ApiRoute } from '../../http/api-route.js';
import { apiSchemaId } from '../../http/api-schema-id.js';
import { apiError } from '../../errors.js';
import { pageResult, parseListParams, setNextLink, type ListBinding } from '../../http/pagination.js';
import { compareKeys } from '../../db/keyset-page.js';
import type { Organization } from './organizations.model.js';

interface OrganizationView {
  id: string;
  name: string;
  plan: Organization['plan'];
  isDefault: boolean;
  createdAt: string;
}

export const organizationRoutes: ApiRoute[] = [
  {
    method: 'get',
    path: '/organizations',
    scope: 'registrations:read',
    handler: (deps) => async (req, res) => {
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
    },
    doc: {
      operationId: 'listOrganizations',
      summary: 'List the organizations the token subject can act on',
      description: 'Rate limited per subject (there is no organization in the path to count against).',
      tag: 'Organizations',
      list: {},
      response: {
        description: 'The organizations the subject holds an API-access grant for.',
        schema: apiSchemaId('organization'),
      },
    },
  },
];
