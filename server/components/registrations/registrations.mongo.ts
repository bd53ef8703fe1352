/**
 * Registrations on MongoDB: the same contract as the embedded repository (test/server/contract/). Every write is
 * one conditional single-document operation (no multi-document transactions), made under the record's write lock
 * so it stays a true compare-and-set on FerretDB too (see server/db/write-locks.ts). The per-organization limit is
 * checked and the record inserted under the organization's quota lock, so concurrent creates never exceed it.
 */
import mongoose, { type Connection } from 'mongoose';
import { conditionalFilter, conditionalWrite, revisionUpdate } from '../../db/conditional-write.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import type { Registration } from './registrations.model.js';
import { DuplicateClientIdError, type CreateOutcome, type RegistrationRepository, type RegistrationWriteFilter } from './registrations.repository.js';
import { fromRegistration, registrationModel, toRegistration, type RegistrationDocument } from './registrations.schema.js';

export function createMongoRegistrationRepository(connection: Connection, locks: WriteLocks): RegistrationRepository {
  const Registrations = registrationModel(connection);
  const recordLock = (id: string) => `registration:${id}`;

  function writeFilter(filter: RegistrationWriteFilter): Record<string, unknown> {
    const query = conditionalFilter(filter);
    if (filter.pendingChangeSetId === null) query.pendingChangeSetId = mongoose.trusted({ $exists: false });
    else if (filter.pendingChangeSetId !== undefined) query.pendingChangeSetId = filter.pendingChangeSetId;
    return query;
  }
  const pendingGuard = (filter: RegistrationWriteFilter) => (record: Registration) =>
    filter.pendingChangeSetId === undefined || (record.pendingChangeSetId ?? null) === filter.pendingChangeSetId;

  async function readOne(organizationId: string, id: string): Promise<Registration | null> {
    const doc = await Registrations.findOne({ _id: id, organizationId }).lean<RegistrationDocument>().maxTimeMS(MAX_TIME_MS);
    return doc ? toRegistration(doc) : null;
  }

  /** After E11000 on a write of `record`: its id taken (→ null) or its clientId taken (→ DuplicateClientIdError). */
  async function explainDuplicate(record: Registration): Promise<Error | null> {
    const owner = await Registrations.findById(record.id).select({ organizationId: 1 }).lean<{ organizationId: string }>().maxTimeMS(MAX_TIME_MS);
    if (owner) return null;
    return new DuplicateClientIdError(record.clientId ?? '');
  }

  return {
    async create(record, options = {}) {
      const insert = async (): Promise<CreateOutcome> => {
        try {
          await Registrations.create([fromRegistration(record)]);
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          const clientIdError = await explainDuplicate(record);
          if (clientIdError) throw clientIdError;
          return { ok: false, reason: 'duplicate' };
        }
        return { ok: true, record: structuredClone(record) };
      };
      const max = options.maxInOrganization;
      if (max === undefined || max === null) return insert();
      // Count and insert as one step for this organization: a count-then-insert race could pass the limit.
      return locks.withLock(`registration-quota:${record.organizationId}`, async () => {
        const count = await Registrations.countDocuments({ organizationId: record.organizationId }).maxTimeMS(MAX_TIME_MS);
        return count >= max ? { ok: false, reason: 'limit_reached' } : insert();
      });
    },

    async upsert(record) {
      try {
        await locks.withLock(recordLock(record.id), () =>
          Registrations.findOneAndReplace({ _id: record.id, organizationId: record.organizationId }, fromRegistration(record), {
            upsert: true,
            maxTimeMS: MAX_TIME_MS,
          }),
        );
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const clientIdError = await explainDuplicate(record);
        throw clientIdError ?? new Error(`registration ${record.id} belongs to another organization`);
      }
      return structuredClone(record);
    },

    get: readOne,

    async list(query) {
      const filter: Record<string, unknown> = { organizationId: query.organizationId, ...afterKey(query.after) };
      if (query.status !== undefined) filter.status = query.status;
      const docs = await Registrations.find(filter).sort(KEYSET_SORT).limit(query.limit).lean<RegistrationDocument[]>().maxTimeMS(MAX_TIME_MS);
      return docs.map(toRegistration);
    },

    async listAwaitingReview(query) {
      const filter: Record<string, unknown> = {
        $or: [{ status: 'pending_review' }, { pendingChangeSetId: mongoose.trusted({ $exists: true }) }],
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
      return Registrations.countDocuments({ organizationId }).maxTimeMS(MAX_TIME_MS);
    },

    async update(filter, changes, now) {
      const attempt = async () => {
        try {
          const doc = await Registrations.findOneAndUpdate(writeFilter(filter), revisionUpdate(changes, now), {
            returnDocument: 'after',
            runValidators: true,
            maxTimeMS: MAX_TIME_MS,
          }).lean<RegistrationDocument>();
          return doc ? toRegistration(doc) : null;
        } catch (error) {
          // The only unique index an update can hit is clientId's.
          if (isDuplicateKey(error)) throw new DuplicateClientIdError(String(changes.clientId ?? ''));
          throw error;
        }
      };
      return locks.withLock(recordLock(filter.id), () =>
        conditionalWrite(filter, attempt, () => readOne(filter.organizationId, filter.id), pendingGuard(filter)),
      );
    },

    async delete(filter) {
      const attempt = async () => {
        const doc = await Registrations.findOneAndDelete(writeFilter(filter), { maxTimeMS: MAX_TIME_MS }).lean<RegistrationDocument>();
        return doc ? toRegistration(doc) : null;
      };
      return locks.withLock(recordLock(filter.id), () =>
        conditionalWrite(filter, attempt, () => readOne(filter.organizationId, filter.id), pendingGuard(filter)),
      );
    },
  };
}
