/** One entry of the append-only audit log: who moved what from which status to which, when, at which revision, why. */

type AuditTargetType = 'registration' | 'change_set' | 'organization' | 'grant' | 'webhook';

export interface AuditEntry {
  id: string;
  /** The organization the target belongs to (organizations are their own organization). */
  organizationId: string;
  targetType: AuditTargetType;
  targetId: string;
  /** For change sets: the registration they belong to, so a registration's history includes them. */
  registrationId?: string;
  /** The transition or admin change (`approve`, `set_plan`, `grant_access`, `provisioned`, …). */
  action: string;
  /** The subject who did it (`system:provisioning` for the outbox worker). */
  actor: string;
  at: Date;
  from?: string;
  to?: string;
  /** The target's revision after the change, when it has one. */
  revision?: number;
  reason?: string;
}

/** An entry to append; with `id` (an outbox event's), appending it again is a no-op that returns the stored entry. */
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'> & { id?: string; at?: Date };

export interface AuditQuery {
  organizationId?: string;
  /** Entries of this registration and of its change sets. */
  registrationId?: string;
  targetId?: string;
  limit: number;
  /** Entries strictly after this one (keyset on `at`, `id`: oldest first). */
  after?: { at: Date; id: string };
}
