/**
 * The one way every registration transition commits — self-service or reviewer: one conditional write of the
 * record (on the revision it was decided on) that carries its audit entry and provisioning step in the record's
 * outbox, delivered right after (outbox/outbox.model.ts). A crash between the two can delay the entry, never lose it.
 */
import type { WriteOutcome } from '../../db/conditional-write.js';
import { outboxDelivery, withoutOutbox } from '../outbox/outbox-delivery.js';
import { transitionEvents, type TransitionEffects } from '../outbox/transition-events.js';
import type { AuditEntry } from '../audit/audit.model.js';
import type { ProvisioningStepKind } from '../provisioning/provisioning.model.js';
import type { Registration, RegistrationChanges, RegistrationStatus } from './registrations.model.js';
import type { ServiceDeps } from './service-deps.js';

interface RegistrationCommit {
  /** The record as read when the transition was decided: the write is conditional on its revision. */
  current: Registration;
  statusIn: readonly RegistrationStatus[];
  /** `null`: no change set may be open; a string: exactly that one must hold the registration. */
  pendingChangeSetId?: string | null;
  /** The changes, or `remove` for a delete. */
  changes: RegistrationChanges | 'remove';
  now: Date;
  effects: TransitionEffects[];
}

/** The audit entry of a transition of `current` by `actor`: from its status to `to`, at the revision it produces. */
export function registrationAudit(
  current: Registration,
  input: { action: string; actor: string; to: string; now: Date; reason?: string; revision?: number },
): Omit<AuditEntry, 'id'> {
  return {
    organizationId: current.organizationId,
    targetType: 'registration',
    targetId: current.id,
    action: input.action,
    actor: input.actor,
    at: input.now,
    from: current.status,
    to: input.to,
    revision: input.revision ?? current.revision + 1,
    ...(input.reason !== undefined && { reason: input.reason }),
  };
}

/** The provisioning step for the revision a transition of `current` produces. */
export function provisioningStep(current: Registration, kind: ProvisioningStepKind): TransitionEffects['provisioning'] {
  return { kind, organizationId: current.organizationId, registrationId: current.id, revision: current.revision + 1 };
}

export async function commitRegistration(
  deps: ServiceDeps,
  commit: RegistrationCommit,
): Promise<WriteOutcome<Registration>> {
  const { current } = commit;
  const filter = {
    organizationId: current.organizationId,
    id: current.id,
    statusIn: commit.statusIn,
    revisionIn: [current.revision],
    ...(commit.pendingChangeSetId !== undefined && { pendingChangeSetId: commit.pendingChangeSetId }),
  };
  const outbox = commit.effects.flatMap(transitionEvents);
  // Delivered by the repository right after the write, while the record is still locked (no extra lock round).
  const deliver = outboxDelivery(deps);
  const outcome =
    commit.changes === 'remove'
      ? await deps.store.registrations.delete(filter, commit.now, outbox, deliver)
      : await deps.store.registrations.update(filter, commit.changes, commit.now, outbox, deliver);
  return outcome.ok ? { ok: true, record: withoutOutbox(outcome.record) } : outcome;
}
