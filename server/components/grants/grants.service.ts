/**
 * Managing API-access grants (the "API Access" area of organization settings, DESIGN.md §1.2). Used by the seed
 * loader, the internal surface and tests; there is no public route that grants access.
 */
import { apiError } from '../../errors.js';
import type { Store } from '../../deps.js';
import type { Grant } from './grants.model.js';

interface GrantAccessInput {
  organizationId: string;
  subject: string;
  /** Marks this organization as the subject's default; any previous default is unmarked. */
  isDefault?: boolean;
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
  const organization = await store.organizations.get(input.organizationId);
  if (!organization) throw apiError('not_found', 'No such organization.');
  return store.grants.grant({
    organizationId: organization.id,
    subject: input.subject,
    isDefault: input.isDefault ?? false,
  });
}

/** Removes the subject's access; returns whether a grant existed. The subject's resources stay with the organization. */
export async function revokeAccess(
  store: Pick<Store, 'grants'>,
  input: { organizationId: string; subject: string },
): Promise<boolean> {
  return store.grants.revoke(input);
}
