/**
 * Registrations on MongoDB: the same contract as the embedded repository (test/server/contract/). Every write is
 * one conditional single-document operation (no multi-document transactions), made under the record's write lock
 * so it stays a true compare-and-set on FerretDB too (see server/db/write-locks.ts). The per-organization limit is
 * checked and the record inserted under the organization's quota lock, so concurrent creates never exceed it.
 * A create delivers its outbox without updating the record it inserted (outbox/create-intents.schema.ts says why),
 * and its inserts go in one command with those of concurrent creates (db/write-batcher.ts).
 */
import mongoose, { type Connection } from 'mongoose';
import { copyPlain } from '../../../lib/copy-plain.js';
import { batchedInserts, collectionOf } from '../../db/batched-writes.mongo.js';
import { conditionalFilter, conditionalWrite, revisionUpdate } from '../../db/conditional-write.mongo.js';
import { classifyMiss } from '../../db/conditional-write.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import { remainingEvents, withoutDelivered, type OutboxDelivery, type OutboxEvent } from '../outbox/outbox.model.js';
import type { Registration } from './registrations.model.js';
import {
  DuplicateClientIdError,
  type CreateOutcome,
  type RegistrationRepository,
  type RegistrationWriteFilter,
} from './registrations.repository.js';
import { createIntentsOn } from '../outbox/create-intents.mongo.js';
import {
  fromRegistration,
  registrationModel,
  toRegistration,
  toRegistrationWithEvents,
  type RegistrationDocument,
} from './registrations.schema.js';

export function createMongoRegistrationRepository(connection: Connection, locks: WriteLocks): RegistrationRepository {
  const Registrations = registrationModel(connection);
  const recordLock = (id: string) => `registration:${id}`;

  // A tombstone (deleted, outbox not yet delivered) is invisible to every read and write but the outbox's.
  const live = () => ({ removedAt: mongoose.trusted({ $exists: false }) });

  function writeFilter(filter: RegistrationWriteFilter): Record<string, unknown> {
    const query: Record<string, unknown> = { ...conditionalFilter(filter), ...live() };
    if (filter.pendingChangeSetId === null) query.pendingChangeSetId = mongoose.trusted({ $exists: false });
    else if (filter.pendingChangeSetId !== undefined) query.pendingChangeSetId = filter.pendingChangeSetId;
    return query;
  }
  const pendingGuard = (filter: RegistrationWriteFilter) => (record: Registration) =>
    filter.pendingChangeSetId === undefined || (record.pendingChangeSetId ?? null) === filter.pendingChangeSetId;

  /**
   * One record by id, read with a filter of exactly `{ _id }` and checked for its organization and tombstone here:
   * FerretDB 1.24 (SQLite) uses the `_id` index only for such a filter and scans the whole collection for any other
   * (measured: 3 ms against 100 ms at 20k records). MongoDB answers both from the index.
   */
  async function byId(id: string): Promise<RegistrationDocument | null> {
    return Registrations.findOne({ _id: id }).lean<RegistrationDocument>().maxTimeMS(MAX_TIME_MS);
  }

  const intents = createIntentsOn(connection, byId, toRegistrationWithEvents);
  // Creates of concurrent requests insert their records in one command (write-batcher.ts); each record is cast and
  // validated by the schema first, as `Model.create` would, and a duplicate key fails only its own create.
  const inserts = batchedInserts(collectionOf(Registrations));
  async function insertRecord(doc: RegistrationDocument): Promise<void> {
    const document = new Registrations(doc);
    await document.validate();
    await inserts.write(document.toObject({ depopulate: true, virtuals: false, getters: false, transform: false }));
  }

  async function readOne(organizationId: string, id: string): Promise<Registration | null> {
    const doc = await byId(id);
    return doc && doc.organizationId === organizationId && doc.removedAt == null ? toRegistration(doc) : null;
  }

  async function byIdempotencyKey(
    organizationId: string,
    idempotencyKey: string,
    onlyLive = true,
  ): Promise<Registration | null> {
    const doc = await Registrations.findOne({ idempotencyKey, organizationId, ...(onlyLive && live()) })
      .lean<RegistrationDocument>()
      .maxTimeMS(MAX_TIME_MS);
    return doc ? toRegistrationWithEvents(doc) : null;
  }

  /** `$push` of outbox events (and when the outbox became non-empty) beside an update's other operators. */
  function withOutbox(
    update: Record<string, unknown>,
    outbox: readonly OutboxEvent[] | undefined,
    now: Date,
  ): Record<string, unknown> {
    if (!outbox || outbox.length === 0) return update;
    return { ...update, $push: { outbox: { $each: copyPlain([...outbox]) } }, $min: { outboxAt: now } };
  }

  /** The record as a create with an intent stores it: with its events, but not among the drain's pending ones. */
  function withoutOutboxAt(record: Registration): RegistrationDocument {
    const { outboxAt: _outboxAt, ...rest } = fromRegistration(record);
    return rest;
  }

  /** Gives a created record its `outboxAt` (under its lock, like every update of a record on FerretDB). */
  async function markPending(record: Registration): Promise<void> {
    await locks.withLock(recordLock(record.id), () =>
      Registrations.updateOne(
        { _id: record.id, organizationId: record.organizationId },
        { $min: { outboxAt: record.outboxAt ?? record.createdAt } },
        { maxTimeMS: MAX_TIME_MS },
      ),
    );
  }

  /**
   * Delivers the outbox of a record just written, while its lock is held (no other write can run), and removes what
   * was delivered with one update, no read: `record` is the stored document. A failed clear leaves the events to
   * the drain (delivering them again is a no-op).
   */
  async function settle(record: Registration, deliver: OutboxDelivery | undefined): Promise<Registration> {
    if (!deliver || !record.outbox?.length) return record;
    const delivered = await deliver(record.outbox);
    if (delivered.length === 0) return record;
    const next = withoutDelivered(record, delivered);
    try {
      if (next.outbox === undefined && next.removedAt !== undefined) {
        await Registrations.deleteOne(
          { _id: record.id, organizationId: record.organizationId },
          { maxTimeMS: MAX_TIME_MS },
        );
      } else {
        const update = next.outbox ? { $set: { outbox: next.outbox } } : { $unset: { outbox: '', outboxAt: '' } };
        await Registrations.updateOne({ _id: record.id, organizationId: record.organizationId }, update, {
          maxTimeMS: MAX_TIME_MS,
        });
      }
    } catch {
      return record;
    }
    return next;
  }

  /** After E11000 on a write of `record`: its id taken (→ null) or its clientId taken (→ DuplicateClientIdError). */
  async function explainDuplicate(record: Registration): Promise<Error | null> {
    const owner = await Registrations.findById(record.id)
      .select({ organizationId: 1 })
      .lean<{ organizationId: string }>()
      .maxTimeMS(MAX_TIME_MS);
    if (owner) return null;
    return new DuplicateClientIdError(record.clientId ?? '');
  }

  return {
    async create(record, options = {}) {
      // With a delivery, the events ride on the record and a create intent (outbox/create-intents.schema.ts) says they may
      // be undelivered: no update of the record afterwards, so no lock either (nobody else writes a record no
      // create has acknowledged yet).
      const intent = options.deliver && record.outbox?.length ? intents.intentFor(record) : undefined;
      const insert = async (): Promise<CreateOutcome> => {
        if (intent) await intents.write(intent);
        try {
          await insertRecord(intent ? withoutOutboxAt(record) : fromRegistration(record));
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          // This record never landed: its intent has nothing to deliver (the drain would find that out later).
          if (intent) intents.retire(intent._id);
          if (record.idempotencyKey !== undefined) {
            const existing = await byIdempotencyKey(record.organizationId, record.idempotencyKey, false);
            if (existing)
              return existing.removedAt === undefined
                ? { ok: false, reason: 'idempotency_key_taken', existing }
                : { ok: false, reason: 'duplicate' };
          }
          const clientIdError = await explainDuplicate(record);
          if (clientIdError) throw clientIdError;
          return { ok: false, reason: 'duplicate' };
        }
        if (!intent || !options.deliver) return { ok: true, record: copyPlain(record) };
        const delivered = await options.deliver(copyPlain(record.outbox ?? []));
        // Every event delivered: the intent is done. The stored record keeps its (delivered) events until its next
        // write, which delivers them again as no-ops and clears them; callers never see an outbox. The answer does
        // not wait for the retirement (outbox/create-intents.mongo.ts), so it is not a step of every create.
        if (delivered.length === record.outbox?.length) intents.retire(intent._id);
        // Some event not delivered (the database failing, most likely): mark the record pending as every other
        // write does, so the drain finds it by `outboxAt` for as long as it takes, not only within the horizon.
        else await markPending(record).catch(() => undefined);
        return { ok: true, record: withoutDelivered(copyPlain(record), delivered) };
      };
      // A retried create is found by the unique idempotencyKey index when it inserts, not by a read before: on
      // FerretDB 1.24 a read by any field but `_id` scans the whole collection (a keyed create answered 503 once
      // the collection held a few thousand records). Only a create the quota would refuse looks first, so a retry
      // is still answered with its record before the quota is counted (the record counts itself).
      const max = options.maxInOrganization;
      if (max === undefined || max === null) return insert();
      // Count and insert as one step for this organization: a count-then-insert race could pass the limit.
      return locks.withLock(`registration-quota:${record.organizationId}`, async () => {
        const count = await Registrations.countDocuments({
          organizationId: record.organizationId,
          ...live(),
        }).maxTimeMS(MAX_TIME_MS);
        if (count < max) return insert();
        const existing =
          record.idempotencyKey === undefined
            ? null
            : await byIdempotencyKey(record.organizationId, record.idempotencyKey);
        return existing
          ? { ok: false, reason: 'idempotency_key_taken', existing }
          : { ok: false, reason: 'limit_reached' };
      });
    },

    async upsert(record) {
      try {
        await locks.withLock(recordLock(record.id), async () => {
          // A record read with `get` comes without a create's events (hidden, maybe undelivered): keep them.
          const stored = record.outbox === undefined ? await byId(record.id) : null;
          const kept = stored?.outbox?.length
            ? { outbox: stored.outbox, ...(stored.outboxAt && { outboxAt: stored.outboxAt }) }
            : {};
          return Registrations.findOneAndReplace(
            { _id: record.id, organizationId: record.organizationId },
            { ...fromRegistration(record), ...kept },
            {
              upsert: true,
              maxTimeMS: MAX_TIME_MS,
            },
          );
        });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const clientIdError = await explainDuplicate(record);
        throw clientIdError ?? new Error(`registration ${record.id} belongs to another organization`);
      }
      return copyPlain(record);
    },

    get: readOne,

    findByIdempotencyKey: (organizationId, idempotencyKey) => byIdempotencyKey(organizationId, idempotencyKey),

    async list(query) {
      const filter: Record<string, unknown> = {
        organizationId: query.organizationId,
        ...afterKey(query.after),
        ...live(),
      };
      if (query.status !== undefined) filter.status = query.status;
      const docs = await Registrations.find(filter)
        .sort(KEYSET_SORT)
        .limit(query.limit)
        .lean<RegistrationDocument[]>()
        .maxTimeMS(MAX_TIME_MS);
      return docs.map(toRegistration);
    },

    async listAwaitingReview(query) {
      const filter: Record<string, unknown> = {
        $or: [{ status: 'pending_review' }, { pendingChangeSetId: mongoose.trusted({ $exists: true }) }],
        ...live(),
      };
      if (query.organizationId !== undefined) filter.organizationId = query.organizationId;
      const docs = await Registrations.find(filter)
        .sort({ updatedAt: 1, _id: 1 })
        .limit(query.limit)
        .lean<RegistrationDocument[]>()
        .maxTimeMS(MAX_TIME_MS);
      return docs.map(toRegistration);
    },

    async count(organizationId) {
      return Registrations.countDocuments({ organizationId, ...live() }).maxTimeMS(MAX_TIME_MS);
    },

    async update(filter, changes, now, outbox, deliver) {
      const attempt = async () => {
        try {
          const doc = await Registrations.findOneAndUpdate(
            writeFilter(filter),
            withOutbox(revisionUpdate(changes, now), outbox, now),
            {
              returnDocument: 'after',
              runValidators: true,
              maxTimeMS: MAX_TIME_MS,
            },
          ).lean<RegistrationDocument>();
          return doc ? toRegistration(doc) : null;
        } catch (error) {
          // The only unique index an update can hit is clientId's.
          if (isDuplicateKey(error)) throw new DuplicateClientIdError(String(changes.clientId ?? ''));
          throw error;
        }
      };
      return locks.withLock(recordLock(filter.id), async () => {
        const outcome = await conditionalWrite(
          filter,
          attempt,
          () => readOne(filter.organizationId, filter.id),
          pendingGuard(filter),
        );
        return outcome.ok ? { ok: true, record: await settle(outcome.record, deliver) } : outcome;
      });
    },

    async updateSecret(filter, expectedVersion, secret, now, outbox, deliver) {
      // Under the record's lock, like every write of a registration: a read by `{ _id }` decides, then one update
      // by `{ _id }` (the only filter FerretDB 1.24 serves from an index) applies; nobody else writes in between.
      return locks.withLock(recordLock(filter.id), async () => {
        const doc = await byId(filter.id);
        const current =
          doc && doc.organizationId === filter.organizationId && doc.removedAt == null
            ? toRegistration(doc)
            : undefined;
        const miss = classifyMiss(current, filter, (record) => (record.secret?.version ?? null) === expectedVersion);
        if (miss) return { ok: false, reason: miss, current };
        const set = secret === null ? { $unset: { secret: '' } } : { $set: { secret: copyPlain(secret) } };
        const after = await Registrations.findOneAndUpdate({ _id: filter.id }, withOutbox(set, outbox, now), {
          returnDocument: 'after',
          maxTimeMS: MAX_TIME_MS,
        }).lean<RegistrationDocument>();
        if (!after) return { ok: false, reason: 'not_found' };
        return { ok: true, record: await settle(toRegistration(after), deliver) };
      });
    },

    async delete(filter, now = new Date(), outbox, deliver) {
      const tombstone = outbox !== undefined && outbox.length > 0;
      let after: Registration | undefined;
      const attempt = async () => {
        // With effects to deliver, the record stays as a tombstone carrying them until they are delivered.
        if (!tombstone) {
          const doc = await Registrations.findOneAndDelete(writeFilter(filter), {
            maxTimeMS: MAX_TIME_MS,
          }).lean<RegistrationDocument>();
          return doc ? toRegistration(doc) : null;
        }
        const doc = await Registrations.findOneAndUpdate(
          writeFilter(filter),
          withOutbox({ $set: { removedAt: now } }, outbox, now),
          {
            returnDocument: 'after',
            maxTimeMS: MAX_TIME_MS,
          },
        ).lean<RegistrationDocument>();
        if (!doc) return null;
        after = toRegistration(doc);
        // The outcome is the record as it was: without the tombstone mark and the events of this delete.
        const { removedAt: _removedAt, ...removed } = withoutDelivered(
          after,
          outbox.map((event) => event.id),
        );
        return removed as Registration;
      };
      return locks.withLock(recordLock(filter.id), async () => {
        const outcome = await conditionalWrite(
          filter,
          attempt,
          () => readOne(filter.organizationId, filter.id),
          pendingGuard(filter),
        );
        if (outcome.ok && after) await settle(after, deliver);
        return outcome;
      });
    },

    async pendingOutbox(query) {
      const docs = await Registrations.find({ outboxAt: mongoose.trusted({ $lte: query.before }) })
        .sort({ outboxAt: 1, _id: 1 })
        .limit(query.limit)
        .lean<RegistrationDocument[]>()
        .maxTimeMS(MAX_TIME_MS);
      const pending = docs.map(toRegistration);
      if (pending.length >= query.limit) return pending;
      const seen = new Set(pending.map((record) => record.id));
      const fromIntents = await intents.pending(query.before, query.limit - pending.length);
      return [...pending, ...fromIntents.filter((record) => !seen.has(record.id))];
    },

    async clearOutbox(organizationId, id, eventIds) {
      // Read-modify-write under the record's lock, like every write of a registration, so it cannot lose (or be
      // lost by) a concurrent transition on FerretDB; the revision and updatedAt stay as they are.
      const left = await locks.withLock(recordLock(id), async () => {
        const doc = await byId(id);
        if (!doc || doc.organizationId !== organizationId) return undefined;
        const outbox = remainingEvents(doc.outbox as OutboxEvent[] | undefined, eventIds);
        if (outbox.length === 0 && doc.removedAt) {
          await Registrations.deleteOne({ _id: id, organizationId }, { maxTimeMS: MAX_TIME_MS });
        } else {
          const update = outbox.length > 0 ? { $set: { outbox } } : { $unset: { outbox: '', outboxAt: '' } };
          await Registrations.updateOne({ _id: id, organizationId }, update, { maxTimeMS: MAX_TIME_MS });
        }
        return outbox;
      });
      // The record's create intent is done once none of its events is left (the drain would find that out too).
      if (left) await intents.retireDelivered(id, left);
    },
  };
}
