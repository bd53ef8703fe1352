/**
 * Registrations on MongoDB: the same contract as the embedded repository (test/server/contract/). Every write is
 * a single-document operation (no multi-document transactions) by `{ _id }`, checked and made under the record's
 * write lock (db/conditional-write.mongo.ts says why that shape). The per-organization limit is checked and the
 * record inserted under the organization's quota lock, so concurrent creates never exceed it. A write that stores
 * outbox events announces them with a due item first (outbox/due-items.schema.ts), which the drain reads instead
 * of this collection; a create delivers its events without updating the record it inserted, and its inserts go in
 * one command with those of concurrent creates (db/write-batcher.ts).
 */
import mongoose, { type Connection } from 'mongoose';
import { copyPlain } from '../../../lib/copy-plain.js';
import { batchedInserts, collectionOf } from '../../db/batched-writes.mongo.js';
import { lockedConditionalWrite, revisionUpdate } from '../../db/conditional-write.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import { remainingEvents, withoutDelivered, type OutboxDelivery, type OutboxEvent } from '../outbox/outbox.model.js';
import type { Registration } from './registrations.model.js';
import {
  applyRegistrationChanges,
  DuplicateClientIdError,
  type CreateOutcome,
  type RegistrationRepository,
  type RegistrationWriteFilter,
} from './registrations.repository.js';
import { createDueItems } from '../outbox/due-items.mongo.js';
import { compareEntries, createRegistrationDirectories, ENTRY_HORIZON_MS } from './registration-directory.mongo.js';
import type { DirectoryEntry } from './registration-directory.schema.js';
import {
  fromRegistration,
  registrationModel,
  reviewQueueAfter,
  toRegistration,
  toRegistrationWithEvents,
  type RegistrationDocument,
} from './registrations.schema.js';

/** Earlier than any date this service writes: a range from it holds every `reviewQueueAt`. */
const EARLIEST_DATE = new Date(0);

/** Up to this many records left in its directory, an organization's page is read record by record by `{ _id }`. */
const DIRECT_READS = 5;

export function createMongoRegistrationRepository(connection: Connection, locks: WriteLocks): RegistrationRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const Registrations = registrationModel(connection);
  const recordLock = (id: string) => `registration:${id}`;

  // A tombstone (deleted, outbox not yet delivered) is invisible to every read and write but the outbox's.
  const live = () => ({ removedAt: mongoose.trusted({ $exists: false }) });

  const pendingGuard = (filter: RegistrationWriteFilter) => (record: Registration) =>
    filter.pendingChangeSetId === undefined || (record.pendingChangeSetId ?? null) === filter.pendingChangeSetId;

  /**
   * One record by id, read with a filter of exactly `{ _id }` and checked for its organization and tombstone here:
   * FerretDB 1.24 (SQLite) evaluates such a filter inside SQLite, about ten times cheaper per document than any
   * other, though it scans the collection for both (db/conditional-write.mongo.ts). MongoDB answers both from the
   * index.
   */
  async function byId(id: string): Promise<RegistrationDocument | null> {
    return Registrations.findOne({ _id: id }).lean<RegistrationDocument>().maxTimeMS(maxTimeMS);
  }

  const due = createDueItems(connection, {
    holder: 'registrations',
    readRecord: byId,
    toRecord: toRegistrationWithEvents,
    whileLocked: (id, check) => locks.withLock(recordLock(id), check),
  });
  /** Retires `item` once none of its events is left in `outbox` (what a write's delivery left). */
  const retireIfDelivered = (item: { _id: string; eventIds: string[] } | undefined, outbox?: OutboxEvent[]) => {
    if (item && !(outbox ?? []).some((event) => item.eventIds.includes(event.id))) due.retire(item._id);
  };
  // Creates of concurrent requests insert their records in one command (write-batcher.ts); each record is cast and
  // validated by the schema first, as `Model.create` would, and a duplicate key fails only its own create.
  const inserts = batchedInserts(collectionOf(Registrations), { maxTimeMS });
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
      .maxTimeMS(maxTimeMS);
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

  /**
   * Gives a created record whose events were not all delivered its `outboxAt`, so reads show them pending as after
   * any other write (under its lock, like every update of a record; its due item stays for the drain).
   */
  async function markPending(record: Registration): Promise<void> {
    await locks.withLock(recordLock(record.id), () =>
      Registrations.updateOne(
        { _id: record.id },
        { $min: { outboxAt: record.outboxAt ?? record.createdAt } },
        { maxTimeMS },
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
        await Registrations.deleteOne({ _id: record.id }, { maxTimeMS });
      } else {
        const update = next.outbox ? { $set: { outbox: next.outbox } } : { $unset: { outbox: '', outboxAt: '' } };
        await Registrations.updateOne({ _id: record.id }, update, { maxTimeMS });
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
      .maxTimeMS(maxTimeMS);
    if (owner) return null;
    return new DuplicateClientIdError(record.clientId ?? '');
  }

  /** The live records of `entries`, read by `{ _id }` (in parallel, in order); null where there is none. */
  async function recordsOf(entries: readonly DirectoryEntry[]): Promise<(RegistrationDocument | null)[]> {
    return Promise.all(entries.map((entry) => byId(entry.id)));
  }

  const directories = createRegistrationDirectories(connection, locks, async (ids) =>
    (await Promise.all(ids.map(byId))).map((doc) => (doc && doc.removedAt == null ? doc : null)),
  );
  /** Drops an entry whose record is known not to have landed (best effort: a list drops it later anyway). */
  const unlist = (organizationId: string, id: string) =>
    directories.remove(organizationId, [id]).catch(() => undefined);

  /** An organization whose directory overflowed: its page through the compound indexes. */
  async function listIndexed(query: Parameters<RegistrationRepository['list']>[0]): Promise<Registration[]> {
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
      .maxTimeMS(maxTimeMS);
    return docs.map(toRegistration);
  }

  /** A create in an organization whose directory overflowed: counted through the compound index. */
  async function createIndexed(
    record: Registration,
    max: number | null,
    insert: () => Promise<CreateOutcome>,
  ): Promise<CreateOutcome> {
    if (max === null) return insert();
    // Count and insert as one step for this organization: a count-then-insert race could pass the limit.
    return locks.withLock(`registration-quota:${record.organizationId}`, async () => {
      const count = await Registrations.countDocuments({ organizationId: record.organizationId, ...live() }).maxTimeMS(
        maxTimeMS,
      );
      if (count < max) return insert();
      const existing =
        record.idempotencyKey === undefined
          ? null
          : await byIdempotencyKey(record.organizationId, record.idempotencyKey);
      return existing
        ? { ok: false, reason: 'idempotency_key_taken', existing }
        : { ok: false, reason: 'limit_reached' };
    });
  }

  return {
    async create(record, options = {}) {
      // The events ride on the record and a due item says they may be undelivered. With a delivery, the record
      // is not updated afterwards (so no lock either: nobody else writes a record no create has acknowledged yet):
      // its delivered events stay on it, hidden (no `outboxAt`), until its next write drops them.
      const item = record.outbox?.length
        ? due.itemFor(record, record.outbox, record.outboxAt ?? record.createdAt)
        : undefined;
      const hidden = item !== undefined && options.deliver !== undefined;
      // Written before the record; alongside the directory's reservation when there is one (it writes no record).
      let announced: Promise<void> | undefined;
      const announce = () => (item ? (announced ??= due.write(item)) : undefined);
      const insert = async (): Promise<CreateOutcome> => {
        await announce();
        try {
          await insertRecord(hidden ? withoutOutboxAt(record) : fromRegistration(record));
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          // This record never landed: its item has nothing to deliver (the drain would find that out later).
          if (item) due.retire(item._id);
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
        if (!item || !options.deliver) return { ok: true, record: copyPlain(record) };
        const delivered = await options.deliver(copyPlain(record.outbox ?? []));
        // Every event delivered: the item is done. The stored record keeps its (delivered) events until its next
        // write, which delivers them again as no-ops and clears them; callers never see an outbox. The answer does
        // not wait for the retirement (outbox/due-items.mongo.ts), so it is not a step of every create.
        if (delivered.length === record.outbox?.length) due.retire(item._id);
        // Some event not delivered (the database failing, most likely): reads show the record's outbox pending, as
        // after every other write; its due item stays for the drain.
        else await markPending(record).catch(() => undefined);
        return { ok: true, record: withoutDelivered(copyPlain(record), delivered) };
      };
      // A retried create is found by the unique idempotencyKey index when it inserts, not by a read before: on
      // FerretDB 1.24 a read by any field but `_id` scans the whole collection (a keyed create answered 503 once
      // the collection held a few thousand records). Only a create the quota would refuse looks first, so a retry
      // is still answered with its record before the quota is counted (the record counts itself).
      const max = options.maxInOrganization ?? null;
      const organizationId = record.organizationId;
      if (await directories.overflowed(organizationId)) return createIndexed(record, max, insert);
      const reserving = directories.reserve(organizationId, {
        entry: { id: record.id, at: record.createdAt, since: new Date() },
        max,
        ...(record.idempotencyKey !== undefined && { idempotencyKey: record.idempotencyKey }),
      });
      const [reserved] = await Promise.all([reserving, announce()]);
      if (reserved.kind !== 'reserved' && item) due.retire(item._id);
      if (reserved.kind === 'overflow') return createIndexed(record, max, insert);
      if (reserved.kind === 'limit_reached') return { ok: false, reason: 'limit_reached' };
      if (reserved.kind === 'key_taken') {
        const doc = await byId(reserved.id);
        if (doc) return { ok: false, reason: 'idempotency_key_taken', existing: toRegistrationWithEvents(doc) };
        return { ok: false, reason: 'limit_reached' };
      }
      let outcome: CreateOutcome;
      try {
        outcome = await insert();
      } catch (error) {
        // Only a clientId taken is known to have left nothing (a lost connection may have written the record).
        if (error instanceof DuplicateClientIdError) await unlist(organizationId, record.id);
        throw error;
      }
      // A retry that found its record never landed; a duplicate id is another record's, entry and all.
      if (!outcome.ok && outcome.reason === 'idempotency_key_taken') await unlist(organizationId, record.id);
      return outcome;
    },

    async upsert(record) {
      try {
        await locks.withLock(recordLock(record.id), async () => {
          const stored = await byId(record.id);
          if (stored && stored.organizationId !== record.organizationId)
            throw new Error(`registration ${record.id} belongs to another organization`);
          // A record read with `get` comes without a create's events (hidden, maybe undelivered): keep them.
          const kept =
            record.outbox === undefined && stored?.outbox?.length
              ? { outbox: stored.outbox, ...(stored.outboxAt && { outboxAt: stored.outboxAt }) }
              : {};
          await Registrations.replaceOne(
            { _id: record.id },
            { ...fromRegistration(record), ...kept },
            { upsert: true, maxTimeMS },
          );
        });
        await directories.put(record.organizationId, { id: record.id, at: record.createdAt, since: new Date() });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        throw (await explainDuplicate(record)) ?? error;
      }
      return copyPlain(record);
    },

    get: readOne,

    findByIdempotencyKey: (organizationId, idempotencyKey) => byIdempotencyKey(organizationId, idempotencyKey),

    async list(query) {
      const directory = await directories.read(query.organizationId);
      if (directory.overflow) return listIndexed(query);
      const after = query.after && { at: query.after.createdAt, id: query.after.id };
      const candidates = after
        ? directory.entries.filter((entry) => compareEntries(entry, after) > 0)
        : directory.entries;
      // A few records are read by `{ _id }` each; more are one query through the compound index, which on FerretDB
      // 1.24 is one scan of the collection, cheaper than DIRECT_READS scans by `{ _id }` (measured: ~10× a document).
      if (candidates.length > DIRECT_READS) return listIndexed(query);
      // Records are read by `{ _id }`, a page's worth at a time (more with a status filter, which skips some).
      const chunk = query.status === undefined ? query.limit : Math.max(2 * query.limit, 20);
      const horizon = Date.now() - ENTRY_HORIZON_MS;
      const page: Registration[] = [];
      const vanished: string[] = [];
      for (let start = 0; start < candidates.length && page.length < query.limit; start += chunk) {
        const slice = candidates.slice(start, start + chunk);
        const docs = await recordsOf(slice);
        slice.forEach((entry, i) => {
          const doc = docs[i];
          if (!doc) {
            if (entry.since.getTime() < horizon) vanished.push(entry.id);
          } else if (
            page.length < query.limit &&
            doc.organizationId === query.organizationId &&
            doc.removedAt == null &&
            (query.status === undefined || doc.status === query.status)
          )
            page.push(toRegistration(doc));
        });
      }
      if (vanished.length > 0) void directories.remove(query.organizationId, vanished).catch(() => undefined);
      return page;
    },

    async listAwaitingReview(query) {
      // Any date: only records awaiting review have one (registrations.schema.ts), and the range reads just them.
      const filter: Record<string, unknown> = {
        reviewQueueAt: mongoose.trusted({ $gte: EARLIEST_DATE }),
        ...live(),
      };
      if (query.organizationId !== undefined) filter.organizationId = query.organizationId;
      const docs = await Registrations.find(filter)
        .sort({ reviewQueueAt: 1, _id: 1 })
        .limit(query.limit)
        .lean<RegistrationDocument[]>()
        .maxTimeMS(maxTimeMS);
      return docs.map(toRegistration);
    },

    async count(organizationId) {
      const directory = await directories.read(organizationId);
      if (!directory.overflow) return directory.entries.length;
      return Registrations.countDocuments({ organizationId, ...live() }).maxTimeMS(maxTimeMS);
    },

    async update(filter, changes, now, outbox, deliver) {
      let item: ReturnType<typeof due.itemFor> | undefined;
      const outcome = await lockedConditionalWrite<Registration>({
        locks,
        lockKey: recordLock(filter.id),
        filter,
        read: () => readOne(filter.organizationId, filter.id),
        guard: pendingGuard(filter),
        write: async (current) => {
          if (outbox?.length) {
            item = due.itemFor(current, outbox, now);
            await due.write(item);
          }
          let doc: RegistrationDocument | null;
          try {
            doc = await Registrations.findOneAndUpdate(
              { _id: filter.id },
              withOutbox(
                revisionUpdate(
                  { ...changes, ...reviewQueueAfter(applyRegistrationChanges(current, changes), now) },
                  now,
                ),
                outbox,
                now,
              ),
              { returnDocument: 'after', runValidators: true, maxTimeMS },
            ).lean<RegistrationDocument>();
          } catch (error) {
            if (item) due.retire(item._id);
            // The only unique index an update can hit is clientId's.
            if (isDuplicateKey(error)) throw new DuplicateClientIdError(String(changes.clientId ?? ''));
            throw error;
          }
          // Still under the lock: what the write stored is delivered before anyone else can write the record.
          const record = doc && (await settle(toRegistration(doc), deliver));
          retireIfDelivered(item, record?.outbox);
          return record;
        },
      });
      if (!outcome.ok && item) due.retire(item._id);
      return outcome;
    },

    async updateSecret(filter, expectedVersion, secret, now, outbox, deliver) {
      // Under the record's lock, like every write of a registration: a read by `{ _id }` decides, then one update
      // by `{ _id }` applies, its events announced by a due item first (as `update` does).
      let item: ReturnType<typeof due.itemFor> | undefined;
      const outcome = await lockedConditionalWrite<Registration>({
        locks,
        lockKey: recordLock(filter.id),
        filter,
        read: () => readOne(filter.organizationId, filter.id),
        guard: (record) => (record.secret?.version ?? null) === expectedVersion,
        write: async (current) => {
          if (outbox?.length) {
            item = due.itemFor(current, outbox, now);
            await due.write(item);
          }
          const set = secret === null ? { $unset: { secret: '' } } : { $set: { secret: copyPlain(secret) } };
          const doc = await Registrations.findOneAndUpdate({ _id: filter.id }, withOutbox(set, outbox, now), {
            returnDocument: 'after',
            maxTimeMS,
          }).lean<RegistrationDocument>();
          const record = doc && (await settle(toRegistration(doc), deliver));
          retireIfDelivered(item, record?.outbox);
          return record;
        },
      });
      if (!outcome.ok && item) due.retire(item._id);
      return outcome;
    },

    async delete(filter, now = new Date(), outbox, deliver) {
      const outcome = await lockedConditionalWrite<Registration>({
        locks,
        lockKey: recordLock(filter.id),
        filter,
        read: () => readOne(filter.organizationId, filter.id),
        guard: pendingGuard(filter),
        write: async (current) => {
          if (!outbox?.length) {
            await Registrations.deleteOne({ _id: filter.id }, { maxTimeMS });
            return current;
          }
          // With effects to deliver, the record stays as a tombstone carrying them until they are delivered.
          const item = due.itemFor(current, outbox, now);
          await due.write(item);
          const doc = await Registrations.findOneAndUpdate(
            { _id: filter.id },
            withOutbox({ $set: { removedAt: now } }, outbox, now),
            { returnDocument: 'after', maxTimeMS },
          ).lean<RegistrationDocument>();
          if (!doc) {
            due.retire(item._id);
            return null;
          }
          const left = await settle(toRegistration(doc), deliver);
          retireIfDelivered(item, left.outbox);
          // The outcome is the record as it was: without the tombstone mark and the events of this delete.
          return current;
        },
      });
      // Out of the directory once gone (or a tombstone); a crash before leaves an entry lists skip and drop.
      if (outcome.ok) await unlist(filter.organizationId, filter.id);
      return outcome;
    },

    async pendingOutbox(query) {
      return due.pending(query.before, query.limit);
    },

    outboxBacklog: () => due.backlog(),

    async clearOutbox(organizationId, id, eventIds) {
      // Read-modify-write under the record's lock, like every write of a registration, so it cannot lose (or be
      // lost by) a concurrent transition on FerretDB; the revision and updatedAt stay as they are.
      const left = await locks.withLock(recordLock(id), async () => {
        const doc = await byId(id);
        if (!doc || doc.organizationId !== organizationId) return undefined;
        const outbox = remainingEvents(doc.outbox as OutboxEvent[] | undefined, eventIds);
        if (outbox.length === 0 && doc.removedAt) {
          await Registrations.deleteOne({ _id: id }, { maxTimeMS });
        } else {
          const update = outbox.length > 0 ? { $set: { outbox } } : { $unset: { outbox: '', outboxAt: '' } };
          await Registrations.updateOne({ _id: id }, update, { maxTimeMS });
        }
        return outbox;
      });
      // The record's due items are done once none of their events is left (the drain would find that out too).
      if (left) await due.retireDelivered(id, left);
    },
  };
}
