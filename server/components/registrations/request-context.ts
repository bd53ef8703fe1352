/** Who is acting and on which organization: what every registration and change-set service function receives. */
import type { Organization } from '../organizations/organizations.model.js';
import type { GrantRole } from '../grants/grants.model.js';
import type { Principal } from '../../principal.js';
import { planFor } from '../../plans.js';
import type { ActionContext } from './state-machine.js';
import { apiError } from '../../errors.js';
import type { Request } from 'express';

export interface RequestContext {
  organization: Organization;
  principal: Pick<Principal, 'sub' | 'scopes'>;
  /** The caller's role in the organization (its API-access grant). */
  role: GrantRole;
}

/** What the state machine weighs for this caller at `now` (the service's clock). */
export function actionContextOf(context: RequestContext, now: Date): ActionContext {
  return {
    scopes: context.principal.scopes,
    changeSetsAllowed: planFor(context.organization.plan).changeSets,
    role: context.role,
    subject: context.principal.sub,
    now,
  };
}

/** The context of an organization-scoped request (authenticate and organization resolution ran first). */
export function requestContextOf(req: Request): RequestContext {
  if (!req.principal)
    throw apiError('unauthorized', 'Authentication is required.', { headers: { 'WWW-Authenticate': 'Bearer' } });
  if (!req.organization || !req.grant)
    throw new Error('organization-scoped route mounted without organization resolution');
  return { organization: req.organization, principal: req.principal, role: req.grant.role };
}
