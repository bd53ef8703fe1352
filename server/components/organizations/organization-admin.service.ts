/**
 * Organization management and API Access on the internal surface (admin): create an organization, set its plan,
 * grant and revoke a token subject's access, mark a default. Every change is audited.
 */
import { apiError } from '../../errors.js';
import type { ApiDeps } from '../../deps.js';
import type { Organization, Plan } from './organizations.model.js';
import type { Grant, GrantRole } from '../grants/grants.model.js';
import { grantAccess, revokeAccess } from '../grants/grants.service.js';

type InternalServiceDeps = Pick<ApiDeps, 'store' | 'clock'>;

export async function createOrganization(
  deps: InternalServiceDeps,
  input: { name: string; plan: Plan; actor: string },
): Promise<Organization> {
  const organization = await deps.store.organizations.create({ name: input.name, plan: input.plan });
  await deps.store.audit.append({
    organizationId: organization.id,
    targetType: 'organization',
    targetId: organization.id,
    action: 'create_organization',
    actor: input.actor,
    at: organization.createdAt,
    to: organization.plan,
  });
  return organization;
}

export async function setOrganizationPlan(
  deps: InternalServiceDeps,
  input: { organizationId: string; plan: Plan; actor: string; reason?: string },
): Promise<Organization> {
  const before = await deps.store.organizations.get(input.organizationId);
  if (!before) throw apiError('not_found', 'No such organization.');
  const after = await deps.store.organizations.setPlan(input.organizationId, input.plan);
  if (!after) throw apiError('not_found', 'No such organization.');
  await deps.store.audit.append({
    at: deps.clock(),
    organizationId: after.id,
    targetType: 'organization',
    targetId: after.id,
    action: 'set_plan',
    actor: input.actor,
    from: before.plan,
    to: after.plan,
    reason: input.reason?.trim() || undefined,
  });
  return after;
}

export async function grantOrganizationAccess(
  deps: InternalServiceDeps,
  input: { organizationId: string; subject: string; isDefault?: boolean; role?: GrantRole; actor: string },
): Promise<Grant> {
  const before = await deps.store.grants.find(input.subject, input.organizationId);
  const grant = await grantAccess(deps.store, input);
  // `granted:developer`, `default:owner`: the audit line shows a role change as plainly as a default change.
  const state = (g: Grant | null) => (g === null ? 'none' : `${g.isDefault ? 'default' : 'granted'}:${g.role}`);
  await deps.store.audit.append({
    at: deps.clock(),
    organizationId: grant.organizationId,
    targetType: 'grant',
    targetId: grant.subject,
    action: 'grant_access',
    actor: input.actor,
    from: state(before),
    to: state(grant),
  });
  return grant;
}

/** Removes the subject's access; 404 when it had none. */
export async function revokeOrganizationAccess(
  deps: InternalServiceDeps,
  input: { organizationId: string; subject: string; actor: string },
): Promise<void> {
  const before = await deps.store.grants.find(input.subject, input.organizationId);
  if (!before || !(await revokeAccess(deps.store, input))) throw apiError('not_found', 'No such grant.');
  await deps.store.audit.append({
    at: deps.clock(),
    organizationId: input.organizationId,
    targetType: 'grant',
    targetId: input.subject,
    action: 'revoke_access',
    actor: input.actor,
    from: `${before.isDefault ? 'default' : 'granted'}:${before.role}`,
    to: 'none',
  });
}
