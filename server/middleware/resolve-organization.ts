/**
 * Resolves the organization a request acts on and checks the caller's API-access grant (docs/architecture.md §1.2, §1.6).
 * Malformed ids, unknown organizations and organizations without a grant all answer the same 404, so existence
 * never leaks.
 */
import type { RequestHandler } from 'express';
import type {} from 'express-serve-static-core';
import { apiError } from '../errors.js';
import type { ApiDeps } from '../deps.js';
import { isId } from '../ids.js';
import type { Organization } from '../components/organizations/organizations.model.js';
import type { Grant } from '../components/grants/grants.model.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by resolveOrganization / resolveDefaultOrganization on every organization-scoped request. */
    organization?: Organization;
    /** The caller's grant on `organization` (its role decides what the caller may do there); set with it. */
    grant?: Grant;
  }
}

function subjectOf(req: Parameters<RequestHandler>[0]): string {
  const sub = req.principal?.sub;
  // authenticate runs first; reaching here without a principal is a wiring bug, answered as unauthenticated.
  if (!sub)
    throw apiError('unauthorized', 'Authentication is required.', { headers: { 'WWW-Authenticate': 'Bearer' } });
  return sub;
}

/** For `/organizations/:organizationId/…`: sets `req.organization` or answers 404 `not_found`. */
export function resolveOrganization(deps: Pick<ApiDeps, 'store'>): RequestHandler {
  return async (req, _res, next) => {
    const subject = subjectOf(req);
    const organizationId = req.params.organizationId;
    if (!isId('org', organizationId)) throw apiError('not_found', 'No such organization.');
    // Both lookups at once (briefly cached per instance on MongoDB); either missing is the same 404.
    const [grant, organization] = await Promise.all([
      deps.store.resolution.grant(subject, organizationId),
      deps.store.resolution.organization(organizationId),
    ]);
    if (!grant || !organization) throw apiError('not_found', 'No such organization.');
    req.organization = organization;
    req.grant = grant;
    next();
  };
}

/** For the unprefixed route tree: the subject's default organization, or 404 `default_organization_not_set`. */
export function resolveDefaultOrganization(deps: Pick<ApiDeps, 'store'>): RequestHandler {
  return async (req, _res, next) => {
    const subject = subjectOf(req);
    const grant = await deps.store.resolution.defaultGrant(subject);
    const organization = grant ? await deps.store.resolution.organization(grant.organizationId) : null;
    if (!organization) {
      throw apiError(
        'default_organization_not_set',
        'No default organization is set for this subject; use /organizations/{organizationId}/… or ask an organization admin to mark one.',
      );
    }
    req.organization = organization;
    req.grant = grant ?? undefined;
    next();
  };
}
