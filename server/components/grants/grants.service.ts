/**
 * Managing API-access grants (the "API Access" area of organization settings, docs/architecture.md §1.2). Used by the seed
 * loader, the internal surface and tests; there is no public route that grants access.
 */
import { apiError } from '../../errors.js';
import type { Store } from '../../deps.js';
import { GRANT_ROLES, type Grant, type GrantRole } from './grants.model.js';

interface GrantAccessInput {
  organizationId: string;
  subject: string;
  /** Marks this organization as the subject's default; any previous default is unmarked. */
  isDefault?: boolean;
  /** The subject's role in the organization; absent: an existing grant keeps its role, a new one is `owner`. */
  role?: GrantRole;
}

/** Grants `subject` access to an existing organization (idempotent). Unknown organization → 404 `not_found`. */
export async function grantAccess(
  store: Pick<Store, 'organizations' | 'grants'>,
  input: GrantAccessInput,
): Promise<Grant> {
  if (typeof input.subject !== 'string' || input.subject.length === 0) {
    throw apiError('invalid_request', 'A grant needs a non-empty subject.', {
      fields: [{ path: 'subject', message: 'is required' }],
    });
  }
  if (input.role !== undefined && !(GRANT_ROLES as readonly string[]).includes(input.role)) {
    throw apiError('validation_failed', `A role is one of ${GRANT_ROLES.join(', ')}.`, {
      fields: [{ path: 'role', message: `must be one of ${GRANT_ROLES.join(', ')}` }],
    });
  }
  const organization = await store.organizations.get(input.organizationId);
  if (!organization) throw apiError('not_found', 'No such organization.');
  return store.grants.grant({
    organizationId: organization.id,
    subject: input.subject,
    isDefault: input.isDefault ?? false,
    ...(input.role !== undefined && { role: input.role }),
  });
}

/** Removes the subject's access; returns whether a grant existed. The subject's resources stay with the organization. */
export async function revokeAccess(
  store: Pick<Store, 'grants'>,
  input: { organizationId: string; subject: string },
): Promise<boolean> {
  return store.grants.revoke(input);
}
