/**
 * Change sets on MongoDB: the contract of the embedded repository, every transition checked and written by
 * `{ _id }` under the change set's write lock (db/conditional-write.mongo.ts). A proposal's outbox events are
 * announced by a due item (outbox/due-items.schema.ts), which the drain reads instead of this collection.
 */
import type { Connection } from 'mongoose';
import { lockedConditionalWrite, revisionUpdate } from '../../db/conditional-write.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import { createDueItems } from '../outbox/due-items.mongo.js';
import { remainingEvents, type OutboxEvent } from '../outbox/outbox.model.js';
import type { ChangeSet } from './change-sets.model.js';
import type { ChangeSetRepository, ChangeSetWriteFilter } from './change-sets.repository.js';
import { changeSetModel, fromChangeSet, toChangeSet, type ChangeSetDocument } from './change-sets.schema.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export function createMongoChangeSetRepository(connection: Connection, locks: WriteLocks): ChangeSetRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const ChangeSets = changeSetModel(connection);

  const lockKey = (id: string) => `change-set:${id}`;
  // By `{ _id }` alone, the owners checked by the callers (the cheap filter on FerretDB: conditional-write.mongo.ts).
  const byId = (id: string) => ChangeSets.findOne({ _id: id }).lean<ChangeSetDocument>().maxTimeMS(maxTimeMS);

  async function readOne(organizationId: string, registrationId: string, id: string): Promise<ChangeSet | null> {
    const doc = await byId(id);
    return doc && doc.organizationId === organizationId && doc.registrationId === registrationId
      ? toChangeSet(doc)
      : null;
  }

  const due = createDueItems(connection, {
    holder: 'changeSets',
    readRecord: byId,
    toRecord: toChangeSet,
    whileLocked: (id, check) => locks.withLock(lockKey(id), check),
  });

  return {
    async create(record) {
      const item = record.outbox?.length
        ? due.itemFor(record, record.outbox, record.outboxAt ?? record.createdAt)
        : undefined;
      if (item) await due.write(item);
      try {
        await ChangeSets.create([fromChangeSet(record)]);
      } catch (error) {
        if (item) due.retire(item._id);
        if (isDuplicateKey(error)) return { ok: false, reason: 'duplicate' };
        throw error;
      }
      return { ok: true, record: copyPlain(record) };
    },

    get: readOne,

    async findByIdempotencyKey(organizationId, idempotencyKey) {
      const doc = await ChangeSets.findOne({ idempotencyKey, organizationId })
        .lean<ChangeSetDocument>()
        .maxTimeMS(maxTimeMS);
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
        .maxTimeMS(maxTimeMS);
      return docs.map(toChangeSet);
    },

    async update(filter: ChangeSetWriteFilter, changes, now) {
      return lockedConditionalWrite<ChangeSet>({
        locks,
        lockKey: lockKey(filter.id),
        filter,
        read: () => readOne(filter.organizationId, filter.registrationId, filter.id),
        write: async () => {
          const doc = await ChangeSets.findOneAndUpdate({ _id: filter.id }, revisionUpdate(changes, now), {
            returnDocument: 'after',
            runValidators: true,
            maxTimeMS,
          }).lean<ChangeSetDocument>();
          return doc ? toChangeSet(doc) : null;
        },
      });
    },

    async pendingOutbox(query) {
      return due.pending(query.before, query.limit);
    },

    outboxBacklog: () => due.backlog(),

    async clearOutbox(organizationId, id, eventIds) {
      // Under the change set's lock, like its transitions, so the read-modify-write holds on FerretDB too.
      const left = await locks.withLock(lockKey(id), async () => {
        const doc = await byId(id);
        if (!doc || doc.organizationId !== organizationId) return undefined;
        const outbox = remainingEvents(doc.outbox as OutboxEvent[] | undefined, eventIds);
        const update = outbox.length > 0 ? { $set: { outbox } } : { $unset: { outbox: '', outboxAt: '' } };
        await ChangeSets.updateOne({ _id: id }, update, { maxTimeMS });
        return outbox;
      });
      if (left) await due.retireDelivered(id, left);
    },
  };
}
