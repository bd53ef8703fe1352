/**
 * Change sets on MongoDB: the contract of the embedded repository, every transition one conditional update made
 * under the change set's write lock (a true compare-and-set on FerretDB too, see server/db/write-locks.ts).
 */
import mongoose, { type Connection } from 'mongoose';
import { conditionalFilter, conditionalWrite, revisionUpdate } from '../../db/conditional-write.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import { remainingEvents, type OutboxEvent } from '../outbox/outbox.model.js';
import type { ChangeSet } from './change-sets.model.js';
import type { ChangeSetRepository, ChangeSetWriteFilter } from './change-sets.repository.js';
import { changeSetModel, fromChangeSet, toChangeSet, type ChangeSetDocument } from './change-sets.schema.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export function createMongoChangeSetRepository(connection: Connection, locks: WriteLocks): ChangeSetRepository {
  const ChangeSets = changeSetModel(connection);

  async function readOne(organizationId: string, registrationId: string, id: string): Promise<ChangeSet | null> {
    // By `{ _id }` alone, the owners checked here: FerretDB 1.24 scans the collection for any other filter
    // (registrations.mongo.ts, byId).
    const doc = await ChangeSets.findOne({ _id: id }).lean<ChangeSetDocument>().maxTimeMS(MAX_TIME_MS);
    return doc && doc.organizationId === organizationId && doc.registrationId === registrationId
      ? toChangeSet(doc)
      : null;
  }

  return {
    async create(record) {
      try {
        await ChangeSets.create([fromChangeSet(record)]);
      } catch (error) {
        if (isDuplicateKey(error)) return { ok: false, reason: 'duplicate' };
        throw error;
      }
      return { ok: true, record: copyPlain(record) };
    },

    get: readOne,

    async findByIdempotencyKey(organizationId, idempotencyKey) {
      const doc = await ChangeSets.findOne({ idempotencyKey, organizationId })
        .lean<ChangeSetDocument>()
        .maxTimeMS(MAX_TIME_MS);
      return doc ? toChangeSet(doc) : null;
    },

    async list(query) {
      const filter: Record<string, unknown> = {
        organizationId: query.organizationId,
        registrationId: query.registrationId,
        ...afterKey(query.after),
      };
      if (query.status !== undefined) filter.status = query.status;
      const docs = await ChangeSets.find(filter)
        .sort(KEYSET_SORT)
        .limit(query.limit)
        .lean<ChangeSetDocument[]>()
        .maxTimeMS(MAX_TIME_MS);
      return docs.map(toChangeSet);
    },

    async update(filter: ChangeSetWriteFilter, changes, now) {
      const attempt = async () => {
        const doc = await ChangeSets.findOneAndUpdate(
          { ...conditionalFilter(filter), registrationId: filter.registrationId },
          revisionUpdate(changes, now),
          { returnDocument: 'after', runValidators: true, maxTimeMS: MAX_TIME_MS },
        ).lean<ChangeSetDocument>();
        return doc ? toChangeSet(doc) : null;
      };
      return locks.withLock(`change-set:${filter.id}`, () =>
        conditionalWrite(filter, attempt, () => readOne(filter.organizationId, filter.registrationId, filter.id)),
      );
    },

    async pendingOutbox(query) {
      const docs = await ChangeSets.find({ outboxAt: mongoose.trusted({ $lte: query.before }) })
        .sort({ outboxAt: 1, _id: 1 })
        .limit(query.limit)
        .lean<ChangeSetDocument[]>()
        .maxTimeMS(MAX_TIME_MS);
      return docs.map(toChangeSet);
    },

    async clearOutbox(organizationId, id, eventIds) {
      // Under the change set's lock, like its transitions, so the read-modify-write holds on FerretDB too.
      await locks.withLock(`change-set:${id}`, async () => {
        const doc = await ChangeSets.findOne({ _id: id, organizationId })
          .lean<ChangeSetDocument>()
          .maxTimeMS(MAX_TIME_MS);
        if (!doc) return;
        const outbox = remainingEvents(doc.outbox as OutboxEvent[] | undefined, eventIds);
        const update = outbox.length > 0 ? { $set: { outbox } } : { $unset: { outbox: '', outboxAt: '' } };
        await ChangeSets.updateOne({ _id: id, organizationId }, update, { maxTimeMS: MAX_TIME_MS });
      });
    },
  };
}
