/**
 * `GET /audit`: the audit log across organizations, oldest first, for reviewers and admins; `organizationId`,
 * `registrationId` narrow it, `after` (an entry id from the previous page) continues it.
 */
import { Router } from 'express';
import { apiError } from '../../errors.js';
import { isId } from '../../ids.js';
import { readAuditLog } from '../../components/audit/audit-log.js';
import type { InternalDeps } from '../internal-deps.js';
import { limitOf, queryString } from '../path-params.js';
import { canRead } from '../require-internal-scope.js';

export function createAuditRouter(deps: InternalDeps): Router {
  const router = Router();
  router.get('/audit', canRead, async (req, res) => {
    const organizationId = queryString(req, 'organizationId');
    const registrationId = queryString(req, 'registrationId');
    const afterAt = queryString(req, 'afterAt');
    const afterId = queryString(req, 'afterId');
    if (organizationId !== undefined && !isId('org', organizationId))
      throw apiError('invalid_request', 'organizationId is not an organization id.');
    if (registrationId !== undefined && !isId('reg', registrationId))
      throw apiError('invalid_request', 'registrationId is not a registration id.');
    let after: { at: Date; id: string } | undefined;
    if (afterAt !== undefined || afterId !== undefined) {
      const at = new Date(afterAt ?? '');
      if (Number.isNaN(at.getTime()) || !isId('aud', afterId))
        throw apiError('invalid_request', 'afterAt and afterId must come from an entry of the previous page.');
      after = { at, id: afterId };
    }
    const limit = limitOf(req, 100, 500);
    const data = await readAuditLog(deps, { organizationId, registrationId, limit, after });
    const last = data.length === limit ? data[data.length - 1] : undefined;
    res.json({ data, next: last ? { afterAt: last.at.toISOString(), afterId: last.id } : null });
  });
  return router;
}
