/** API Access settings: look up a subject's grants; grant, revoke and mark a default (admins only, audited). */
import { Router } from 'express';
import {
  grantOrganizationAccess,
  revokeOrganizationAccess,
} from '../../components/organizations/organization-admin.service.js';
import type { ConsoleDeps } from './console-deps.js';
import { field, pageContext, queryParam, requireAdmin, reviewerOf, rolesOf, sessionOf } from './console-context.js';
import { accessPage } from './views/access-page.js';

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
    await grantOrganizationAccess(deps, { organizationId, subject, isDefault, actor: reviewerOf(res).sub });
    flash(res, `Granted ${subject} access to ${organizationId}${isDefault ? ' (default)' : ''}.`);
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
