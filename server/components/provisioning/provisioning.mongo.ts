/**
 * Provisioning on MongoDB: the contract of the embedded repository. Claims run under one write lock
 * (server/db/write-locks.ts) so two instances never take the same step, on FerretDB too.
 */
import mongoose, { type Connection } from 'mongoose';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import type { OutboxStep, ProvisionedClient } from './provisioning.model.js';
import { stepId, type ProvisioningRepository } from './provisioning.repository.js';
import { provisionedClientModel, provisioningStepModel } from './provisioning.schema.js';

type Doc = Record<string, unknown> & { _id: string };

function fromDoc<T>(doc: Doc, idField: string): T {
  const { _id, ...rest } = doc;
  const out = Object.fromEntries(
    Object.entries({ [idField]: _id, ...rest }).filter(([, value]) => value !== null && value !== undefined),
  );
  return out as T;
}

export function createMongoProvisioningRepository(connection: Connection, locks: WriteLocks): ProvisioningRepository {
  const Steps = provisioningStepModel(connection);
  const Clients = provisionedClientModel(connection);
  const toStep = (doc: Doc) => fromDoc<OutboxStep>(doc, 'id');

  return {
    async enqueue(input) {
      const id = stepId(input.registrationId, input.kind, input.revision);
      const step = {
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
      };
      try {
        await Steps.collection.insertOne(step as never, { maxTimeMS: MAX_TIME_MS });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      return toStep((await Steps.findById(id).lean<Doc>().maxTimeMS(MAX_TIME_MS)) as Doc);
    },
    async claimDue(now, leaseUntil) {
      return locks.withLock('provisioning-claim', async () => {
        const due = await Steps.findOne({
          $or: [
            { status: 'pending', nextAttemptAt: mongoose.trusted({ $lte: now }) },
            { status: 'in_progress', leaseUntil: mongoose.trusted({ $lte: now }) },
          ],
        })
          .sort({ createdAt: 1, _id: 1 })
          .lean<Doc>()
          .maxTimeMS(MAX_TIME_MS);
        if (!due) return null;
        const claimed = await Steps.findOneAndUpdate(
          // Conditional on what was read: a step another claimer changed in between is left alone.
          { _id: due._id, status: String(due.status), attempts: Number(due.attempts) } as Record<string, unknown>,
          { $set: { status: 'in_progress', leaseUntil, updatedAt: now }, $inc: { attempts: 1 } },
          { returnDocument: 'after', maxTimeMS: MAX_TIME_MS },
        ).lean<Doc>();
        return claimed ? toStep(claimed) : null;
      });
    },
    async settle(id, outcome) {
      const set: Record<string, unknown> = { status: outcome.status, updatedAt: outcome.now };
      if (outcome.retryAt) set.nextAttemptAt = outcome.retryAt;
      if (outcome.error !== undefined) set.lastError = outcome.error;
      const unset: Record<string, 1> = { leaseUntil: 1 };
      if (outcome.error === undefined && outcome.status === 'done') unset.lastError = 1;
      await Steps.updateOne(
        { _id: id, status: 'in_progress' },
        { $set: set, $unset: unset },
        { maxTimeMS: MAX_TIME_MS },
      );
    },
    async retry(id, now) {
      const result = await Steps.updateOne(
        { _id: id, status: 'failed' },
        { $set: { status: 'pending', nextAttemptAt: now, updatedAt: now, attempts: 0 } },
        { maxTimeMS: MAX_TIME_MS },
      );
      return result.modifiedCount > 0;
    },
    async listSteps(organizationId, registrationId) {
      const docs = await Steps.find({ organizationId, registrationId })
        .sort({ createdAt: 1, _id: 1 })
        .lean<Doc[]>()
        .maxTimeMS(MAX_TIME_MS);
      return docs.map(toStep);
    },
    async getClient(organizationId, registrationId) {
      const doc = await Clients.findOne({ _id: registrationId, organizationId }).lean<Doc>().maxTimeMS(MAX_TIME_MS);
      return doc ? fromDoc<ProvisionedClient>(doc, 'registrationId') : null;
    },
    async saveClient(client) {
      const { registrationId, createdAt, organizationId, ...fields } = client;
      // The optional fields a save leaves out are removed (a deletion undone, a sealed secret handed over).
      const optional = ['deletedAt', 'clientSecretSealed', 'clientSecretIssuedAt', 'clientSecretExpiresAt'];
      const $set = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      const $unset = Object.fromEntries(optional.filter((name) => !(name in $set)).map((name) => [name, 1]));
      const update: Record<string, unknown> = { $set, $setOnInsert: { createdAt, organizationId }, $unset };
      await Clients.updateOne({ _id: registrationId }, update, { upsert: true, maxTimeMS: MAX_TIME_MS });
    },
  };
}
