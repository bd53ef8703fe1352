/**
 * API Access settings: look up a subject's grants; grant in a role, change a role, revoke and mark a default
 * (admins only, audited).
 */
import { Router } from 'express';
import {
  grantOrganizationAccess,
  revokeOrganizationAccess,
} from '../../components/organizations/organization-admin.service.js';
import { GRANT_ROLES, type GrantRole } from '../../components/grants/grants.model.js';
import { apiError } from '../../errors.js';
import type { ConsoleDeps } from './console-deps.js';
import { field, pageContext, queryParam, requireAdmin, reviewerOf, rolesOf, sessionOf } from './console-context.js';
import { accessPage } from './views/access-page.js';

/** The role a form posted: one of the roles, or a 422 naming them; `optional` lets an empty field through. */
function roleField(value: string, optional = false): GrantRole | undefined {
  if (optional && value === '') return undefined;
  if ((GRANT_ROLES as readonly string[]).includes(value)) return value as GrantRole;
  throw apiError('validation_failed', `A role is one of ${GRANT_ROLES.join(', ')}.`, {
    fields: [{ path: 'role', message: `must be one of ${GRANT_ROLES.join(', ')}` }],
  });
}

export function createAccessRoutes(deps: ConsoleDeps): Router {
  const router = Router();
  const back = (base: string, subject: string) => `${base}/access?subject=${encodeURIComponent(subject)}`;
  const flash = (res: Parameters<typeof sessionOf>[0], message: string) => {
    const session = sessionOf(res);
    if (session) session.flash = message;
  };

  router.get('/access', async (req, res) => {
    const subject = queryParam(req, 'subject');
    const grants = subject === undefined ? [] : await deps.store.grants.listForSubject(subject);
    res.send(accessPage(pageContext(req, res), subject, grants, rolesOf(reviewerOf(res)).includes('admin')));
  });

  router.post('/access/grant', requireAdmin, async (req, res) => {
    const subject = field(req, 'subject').trim();
    const organizationId = field(req, 'organizationId').trim();
    const isDefault = field(req, 'isDefault') === 'true';
    // The form always sends a role; without one (an older page) a new grant is an owner's, as before roles.
    const role = roleField(field(req, 'role'), true);
    const grant = await grantOrganizationAccess(deps, {
      organizationId,
      subject,
      isDefault,
      role,
      actor: reviewerOf(res).sub,
    });
    flash(res, `Granted ${subject} access to ${organizationId} as ${grant.role}${isDefault ? ' (default)' : ''}.`);
    res.redirect(303, back(req.baseUrl, subject));
  });

  router.post('/access/role', requireAdmin, async (req, res) => {
    const subject = field(req, 'subject');
    const organizationId = field(req, 'organizationId');
    const role = roleField(field(req, 'role'));
    const existing = await deps.store.grants.find(subject, organizationId);
    if (!existing) throw apiError('not_found', 'No such grant.');
    await grantOrganizationAccess(deps, {
      organizationId,
      subject,
      isDefault: existing.isDefault,
      role,
      actor: reviewerOf(res).sub,
    });
    flash(res, `${subject} is now ${role} in ${organizationId}.`);
    res.redirect(303, back(req.baseUrl, subject));
  });

  router.post('/access/default', requireAdmin, async (req, res) => {
    const subject = field(req, 'subject');
    const organizationId = field(req, 'organizationId');
    await grantOrganizationAccess(deps, { organizationId, subject, isDefault: true, actor: reviewerOf(res).sub });
    flash(res, `${organizationId} is now the default organization of ${subject}.`);
    res.redirect(303, back(req.baseUrl, subject));
  });

  router.post('/access/revoke', requireAdmin, async (req, res) => {
    const subject = field(req, 'subject');
    const organizationId = field(req, 'organizationId');
    await revokeOrganizationAccess(deps, { organizationId, subject, actor: reviewerOf(res).sub });
    flash(res, `Revoked ${subject}'s access to ${organizationId}.`);
    res.redirect(303, back(req.baseUrl, subject));
  });

  return router;
}
