/**
 * Provisioning on MongoDB: the contract of the embedded repository. Every query goes by `{ _id }` or to the small
 * collection of due steps (provisioning.schema.ts says why): a worker polling with nothing to do reads one empty
 * collection and writes nothing. A step changes under its own write lock (server/db/write-locks.ts), so two
 * instances never take the same step, on FerretDB too.
 */
import mongoose, { type Connection } from 'mongoose';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import type { OutboxStep, ProvisionedClient } from './provisioning.model.js';
import { stepId, type ProvisioningRepository } from './provisioning.repository.js';
import {
  provisionedClientModel,
  provisioningDueModel,
  provisioningStepListModel,
  provisioningStepModel,
} from './provisioning.schema.js';

type Doc = Record<string, unknown> & { _id: string };

function fromDoc<T>(doc: Doc, idField: string): T {
  const { _id, ...rest } = doc;
  const out = Object.fromEntries(
    Object.entries({ [idField]: _id, ...rest }).filter(([, value]) => value !== null && value !== undefined),
  );
  return out as T;
}

/** Due steps one claim looks at: the oldest created among them is taken (as the embedded store does). */
const CLAIM_WINDOW = 50;

const byAge = (a: OutboxStep, b: OutboxStep) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1);

/** Whether a step may be claimed at `now`: pending and due, or in progress with its lease over (its worker died). */
function claimable(step: OutboxStep, now: Date): boolean {
  if (step.status === 'pending') return step.nextAttemptAt <= now;
  return step.status === 'in_progress' && step.leaseUntil !== undefined && step.leaseUntil <= now;
}

/** When a step is due again, or undefined once it is finished. */
function dueAtOf(step: OutboxStep): Date | undefined {
  if (step.status === 'pending') return step.nextAttemptAt;
  return step.status === 'in_progress' ? step.leaseUntil : undefined;
}

export function createMongoProvisioningRepository(connection: Connection, locks: WriteLocks): ProvisioningRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const Steps = provisioningStepModel(connection);
  const Due = provisioningDueModel(connection);
  const Lists = provisioningStepListModel(connection);
  const Clients = provisionedClientModel(connection);
  const toStep = (doc: Doc) => fromDoc<OutboxStep>(doc, 'id');
  const stepLock = (id: string) => `provisioning-step:${id}`;

  async function readStep(id: string): Promise<OutboxStep | null> {
    const doc = await Steps.findOne({ _id: id }).lean<Doc>().maxTimeMS(maxTimeMS);
    return doc ? toStep(doc) : null;
  }

  /** Keeps the due document in step with the step (under the step's lock): due again, or gone once finished. */
  async function markDue(step: OutboxStep): Promise<void> {
    const dueAt = dueAtOf(step);
    if (dueAt) await Due.replaceOne({ _id: step.id }, { dueAt }, { upsert: true, maxTimeMS });
    else await Due.deleteOne({ _id: step.id }, { maxTimeMS });
  }

  /** Inserts `doc` unless a document with its `_id` is there (enqueuing is idempotent). */
  async function insertIfAbsent(model: mongoose.Model<never>, doc: Record<string, unknown>): Promise<void> {
    try {
      await model.collection.insertOne(doc, { maxTimeMS });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Adds a step to its registration's list (under the list's lock: FerretDB's updates are read-then-write). */
  async function listStep(step: { id: string; organizationId: string; registrationId: string }): Promise<void> {
    await locks.withLock(`provisioning-steps:${step.registrationId}`, async () => {
      const list = await Lists.findOne({ _id: step.registrationId }).lean<{ stepIds: string[] }>().maxTimeMS(maxTimeMS);
      if (list?.stepIds.includes(step.id)) return;
      await Lists.replaceOne(
        { _id: step.registrationId },
        { organizationId: step.organizationId, stepIds: [...(list?.stepIds ?? []), step.id] },
        { upsert: true, maxTimeMS },
      );
    });
  }

  return {
    async enqueue(input) {
      const id = stepId(input.registrationId, input.kind, input.revision);
      // Due first, listed next, the step last: a crash in between leaves a due document or a list entry without a
      // step (mended by the next claim, skipped by a read), never a step nobody finds.
      await insertIfAbsent(Due as never, { _id: id, dueAt: input.now });
      await listStep({ id, organizationId: input.organizationId, registrationId: input.registrationId });
      await insertIfAbsent(Steps as never, {
        _id: id,
        organizationId: input.organizationId,
        registrationId: input.registrationId,
        kind: input.kind,
        revision: input.revision,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: input.now,
        createdAt: input.now,
        updatedAt: input.now,
      });
      return (await readStep(id)) as OutboxStep;
    },

    async claimDue(now, leaseUntil) {
      const due = await Due.find({ dueAt: mongoose.trusted({ $lte: now }) })
        .sort({ dueAt: 1, _id: 1 })
        .limit(CLAIM_WINDOW)
        .lean<Doc[]>()
        .maxTimeMS(maxTimeMS);
      if (due.length === 0) return null;
      const steps = (await Promise.all(due.map((doc) => readStep(doc._id)))).filter((step) => step !== null);
      for (const candidate of steps.filter((step) => claimable(step, now)).sort(byAge)) {
        const claimed = await locks.withLock(stepLock(candidate.id), async () => {
          const step = await readStep(candidate.id);
          if (!step || !claimable(step, now)) return null;
          const next = {
            ...step,
            status: 'in_progress' as const,
            leaseUntil,
            attempts: step.attempts + 1,
            updatedAt: now,
          };
          await Steps.updateOne(
            { _id: step.id },
            { $set: { status: next.status, leaseUntil, updatedAt: now }, $inc: { attempts: 1 } },
            { maxTimeMS },
          );
          await markDue(next);
          return next;
        });
        if (claimed) return claimed;
      }
      // What was due but is not claimable (finished, or due later than its document said) is mended.
      const found = new Set(steps.map((step) => step.id));
      for (const doc of due) if (!found.has(doc._id)) await Due.deleteOne({ _id: doc._id }, { maxTimeMS });
      for (const step of steps.filter((s) => !claimable(s, now)))
        await locks.withLock(stepLock(step.id), async () => {
          const current = await readStep(step.id);
          if (current && !claimable(current, now)) await markDue(current);
        });
      return null;
    },

    async settle(id, outcome) {
      await locks.withLock(stepLock(id), async () => {
        const step = await readStep(id);
        if (!step || step.status !== 'in_progress') return;
        const set: Record<string, unknown> = { status: outcome.status, updatedAt: outcome.now };
        if (outcome.retryAt) set.nextAttemptAt = outcome.retryAt;
        if (outcome.error !== undefined) set.lastError = outcome.error;
        const unset: Record<string, 1> = { leaseUntil: 1 };
        if (outcome.error === undefined && outcome.status === 'done') unset.lastError = 1;
        await Steps.updateOne({ _id: id }, { $set: set, $unset: unset }, { maxTimeMS });
        await markDue({ ...step, status: outcome.status, nextAttemptAt: outcome.retryAt ?? step.nextAttemptAt });
      });
    },

    async retry(id, now) {
      return locks.withLock(stepLock(id), async () => {
        const step = await readStep(id);
        if (!step || step.status !== 'failed') return false;
        await markDue({ ...step, status: 'pending', nextAttemptAt: now });
        await Steps.updateOne(
          { _id: id },
          { $set: { status: 'pending', nextAttemptAt: now, updatedAt: now, attempts: 0 } },
          { maxTimeMS },
        );
        return true;
      });
    },

    async listSteps(organizationId, registrationId) {
      const list = await Lists.findOne({ _id: registrationId })
        .lean<{ organizationId: string; stepIds: string[] }>()
        .maxTimeMS(maxTimeMS);
      if (!list || list.organizationId !== organizationId) return [];
      const steps = await Promise.all(list.stepIds.map(readStep));
      return steps.filter((step): step is OutboxStep => step?.organizationId === organizationId).sort(byAge);
    },

    async getClient(organizationId, registrationId) {
      const doc = await Clients.findOne({ _id: registrationId }).lean<Doc>().maxTimeMS(maxTimeMS);
      return doc && doc.organizationId === organizationId ? fromDoc<ProvisionedClient>(doc, 'registrationId') : null;
    },

    async saveClient(client) {
      const { registrationId, createdAt, organizationId, ...fields } = client;
      // The optional fields a save leaves out are removed (a deletion undone, a sealed secret handed over).
      const optional = ['deletedAt', 'clientSecretSealed', 'clientSecretIssuedAt', 'clientSecretExpiresAt'];
      const $set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      const $unset = Object.fromEntries(optional.filter((name) => !(name in $set)).map((name) => [name, 1]));
      const update: Record<string, unknown> = { $set, $setOnInsert: { createdAt, organizationId }, $unset };
      await Clients.updateOne({ _id: registrationId }, update, { upsert: true, maxTimeMS });
    },
  };
}
