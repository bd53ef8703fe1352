/** A change set: a proposed partial config for an active registration, applied only when a reviewer approves. */
import type { OutboxFields } from '../outbox/outbox.model.js';
import type { RegistrationConfig } from '../registrations/registrations.model.js';

export const CHANGE_SET_STATUSES = ['pending_review', 'approved', 'rejected', 'withdrawn'] as const;
export type ChangeSetStatus = (typeof CHANGE_SET_STATUSES)[number];

export interface ChangeSet extends OutboxFields {
  id: string;
  registrationId: string;
  organizationId: string;
  status: ChangeSetStatus;
  /** The registration revision the change was proposed against; approval is refused once it is stale. */
  baseRevision: number;
  /** Top-level config keys replaced on approval. */
  changes: Partial<RegistrationConfig>;
  revision: number;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string;
  decidedAt?: Date;
  decidedBy?: string;
  /** The stored Idempotency-Key of the proposal (`[organizationId, subject, key]`): a retried proposal finds it. */
  idempotencyKey?: string;
}

export type ChangeSetChanges = {
  status?: ChangeSetStatus;
  decidedAt?: Date | null;
  decidedBy?: string | null;
};
