/**
 * Organization management and API Access (admin, `gatehouse:admin`): create an organization, read it, set its
 * plan, list the audit history of an organization, grant and revoke a subject's access (in a role, optionally as
 * default).
 */
import { Router } from 'express';
import { apiError } from '../../errors.js';
import { validateBody } from '../../http/validate-body.js';
import type { Plan } from '../../components/organizations/organizations.model.js';
import type { GrantRole } from '../../components/grants/grants.model.js';
import { readAuditLog } from '../../components/audit/audit-log.js';
import type { InternalDeps } from '../internal-deps.js';
import { limitOf, organizationIdOf } from '../path-params.js';
import { canAdminister, canRead } from '../require-internal-scope.js';
import {
  createOrganization,
  grantOrganizationAccess,
  revokeOrganizationAccess,
  setOrganizationPlan,
} from '../../components/organizations/organization-admin.service.js';

const CREATE_SCHEMA = 'https://gatehouse.dev/schemas/internal/organization-create.schema.json';
const PLAN_SCHEMA = 'https://gatehouse.dev/schemas/internal/organization-plan.schema.json';
const GRANT_SCHEMA = 'https://gatehouse.dev/schemas/internal/access-grant.schema.json';

export function createInternalOrganizationsRouter(deps: InternalDeps): Router {
  const router = Router();

  router.post('/organizations', canAdminister, async (req, res) => {
    const body = validateBody<{ name: string; plan: Plan }>(CREATE_SCHEMA, req.body);
    const organization = await createOrganization(deps, { ...body, actor: req.principal!.sub });
    res.status(201).location(`${req.baseUrl}/organizations/${organization.id}`).json(organization);
  });

  router.get('/organizations/:organizationId', canRead, async (req, res) => {
    const organization = await deps.store.organizations.get(organizationIdOf(req));
    if (!organization) throw apiError('not_found', 'No such organization.');
    res.json(organization);
  });

  router.put('/organizations/:organizationId/plan', canAdminister, async (req, res) => {
    const body = validateBody<{ plan: Plan; reason?: string }>(PLAN_SCHEMA, req.body);
    res.json(
      await setOrganizationPlan(deps, { organizationId: organizationIdOf(req), ...body, actor: req.principal!.sub }),
    );
  });

  router.post('/organizations/:organizationId/access', canAdminister, async (req, res) => {
    const body = validateBody<{ subject: string; isDefault?: boolean; role?: GrantRole }>(GRANT_SCHEMA, req.body);
    res.json(
      await grantOrganizationAccess(deps, {
        organizationId: organizationIdOf(req),
        ...body,
        actor: req.principal!.sub,
      }),
    );
  });

  router.delete('/organizations/:organizationId/access/:subject', canAdminister, async (req, res) => {
    await revokeOrganizationAccess(deps, {
      organizationId: organizationIdOf(req),
      subject: String(req.params.subject),
      actor: req.principal!.sub,
    });
    res.status(204).end();
  });

  router.get('/organizations/:organizationId/audit', canRead, async (req, res) => {
    const organizationId = organizationIdOf(req);
    if (!(await deps.store.organizations.get(organizationId))) throw apiError('not_found', 'No such organization.');
    res.json({ data: await readAuditLog(deps, { organizationId, limit: limitOf(req, 100, 500) }) });
  });

  return router;
}
