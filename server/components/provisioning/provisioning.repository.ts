/**
 * Provisioning storage: the outbox (enqueue once per decision, claim with a lease, finish or reschedule) and the
 * provisioned clients. The embedded implementation lives here, mongo in `provisioning.mongo.ts`.
 */
import type { OutboxStep, ProvisionedClient, ProvisioningStepKind } from './provisioning.model.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export interface ProvisioningRepository {
  /** Inserts the step unless one with its id exists (idempotent); returns the stored step. */
  enqueue(step: {
    organizationId: string;
    registrationId: string;
    kind: ProvisioningStepKind;
    revision: number;
    now: Date;
  }): Promise<OutboxStep>;
  /**
   * Atomically takes the oldest step that is due (pending and `nextAttemptAt` ≤ now, or in progress with an
   * expired lease) and marks it in progress until `leaseUntil`; null when nothing is due.
   */
  claimDue(now: Date, leaseUntil: Date): Promise<OutboxStep | null>;
  /** Ends a claimed step: `done`, or back to `pending` at `retryAt`, or `failed`. */
  settle(
    id: string,
    outcome: { status: 'done' | 'pending' | 'failed'; now: Date; retryAt?: Date; error?: string },
  ): Promise<void>;
  /** A failed step becomes pending again now (admin retry); false when it is not failed. */
  retry(id: string, now: Date): Promise<boolean>;
  listSteps(organizationId: string, registrationId: string): Promise<OutboxStep[]>;
  getClient(organizationId: string, registrationId: string): Promise<ProvisionedClient | null>;
  saveClient(client: ProvisionedClient): Promise<void>;
}

export function stepId(registrationId: string, kind: ProvisioningStepKind, revision: number): string {
  return `${registrationId}:${kind}:${revision}`;
}

const byAge = (a: OutboxStep, b: OutboxStep) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

export function createMemoryProvisioningRepository(): ProvisioningRepository {
  const steps = new Map<string, OutboxStep>();
  const clients = new Map<string, ProvisionedClient>();
  const copy = <T>(value: T): T => copyPlain(value);

  return {
    async enqueue(input) {
      const id = stepId(input.registrationId, input.kind, input.revision);
      const existing = steps.get(id);
      if (existing) return copy(existing);
      const step: OutboxStep = {
        id,
        organizationId: input.organizationId,
        registrationId: input.registrationId,
        kind: input.kind,
        revision: input.revision,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: input.now,
        createdAt: input.now,
        updatedAt: input.now,
      };
      steps.set(id, step);
      return copy(step);
    },
    async claimDue(now, leaseUntil) {
      const due = [...steps.values()]
        .filter(
          (s) =>
            (s.status === 'pending' && s.nextAttemptAt <= now) ||
            (s.status === 'in_progress' && s.leaseUntil !== undefined && s.leaseUntil <= now),
        )
        .sort(byAge)[0];
      if (!due) return null;
      due.status = 'in_progress';
      due.leaseUntil = leaseUntil;
      due.attempts += 1;
      due.updatedAt = now;
      return copy(due);
    },
    async settle(id, outcome) {
      const step = steps.get(id);
      if (!step || step.status !== 'in_progress') return;
      step.status = outcome.status;
      delete step.leaseUntil;
      step.updatedAt = outcome.now;
      if (outcome.retryAt) step.nextAttemptAt = outcome.retryAt;
      if (outcome.error !== undefined) step.lastError = outcome.error;
      else if (outcome.status === 'done') delete step.lastError;
    },
    async retry(id, now) {
      const step = steps.get(id);
      if (!step || step.status !== 'failed') return false;
      Object.assign(step, { status: 'pending', nextAttemptAt: now, updatedAt: now, attempts: 0 });
      return true;
    },
    async listSteps(organizationId, registrationId) {
      return [...steps.values()]
        .filter((s) => s.organizationId === organizationId && s.registrationId === registrationId)
        .sort(byAge)
        .map(copy);
    },
    async getClient(organizationId, registrationId) {
      const client = clients.get(registrationId);
      return client && client.organizationId === organizationId ? copy(client) : null;
    },
    async saveClient(client) {
      clients.set(client.registrationId, copy(client));
    },
  };
}
