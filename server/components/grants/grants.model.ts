/**
 * An API-access grant: a token subject may act on an organization in one role; at most one grant per subject is
 * its default.
 */

/**
 * What a subject may do in the organization (docs/architecture.md §1.11): `viewer` reads; `developer` also creates
 * registrations and edits, submits, withdraws, deletes and proposes change sets on the ones it created; `owner`
 * does everything, others' registrations, client secrets and webhooks included.
 */
export const GRANT_ROLES = ['viewer', 'developer', 'owner'] as const;
export type GrantRole = (typeof GRANT_ROLES)[number];

/**
 * The role of a grant stored before roles existed (schema version 5 and older, or written by such a build during a
 * rolling upgrade): those grants gave everything, so they read as `owner` (the migration also writes it).
 */
export const ROLE_OF_GRANTS_WITHOUT_ONE: GrantRole = 'owner';

export interface Grant {
  organizationId: string;
  subject: string;
  role: GrantRole;
  isDefault: boolean;
  createdAt: Date;
}
