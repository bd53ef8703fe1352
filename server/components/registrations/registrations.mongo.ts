/**
 * Registrations on MongoDB: the same contract as the embedded repository (test/server/contract/). Every write is
 * one conditional single-document operation; the per-organization limit is reserved in a counter document with one
 * conditional upsert, so concurrent creates can never exceed it (no multi-document transactions).
 */
import mongoose, { type Connection } from 'mongoose';
import { conditionalFilter, conditionalWrite, revisionUpdate } from '../../db/conditional-write.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { afterKey, KEYSET_SORT } from '../../db/keyset-filter.js';
import { MAX_TIME_MS } from '../../db/query-limits.js';
import { registrationCounterModel } from '../../db/registration-counter.schema.js';
import type { Registration } from './registrations.model.js';
import { DuplicateClientIdError, type RegistrationRepository, type RegistrationWriteFilter } from './registrations.repository.js';
import { fromRegistration, registrationModel, toRegistration, type RegistrationDocument } from './registrations.schema.js';

export function createMongoRegistrationRepository(connection: Connection): RegistrationRepository {
  const Registrations = registrationModel(connection);
  const Counters = registrationCounterModel(connection);

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

  async function adjustCounter(organizationId: string, by: number): Promise<void> {
    await Counters.updateOne({ _id: organizationId }, { $inc: { count: by } }, { upsert: true, maxTimeMS: MAX_TIME_MS });
  }

  /** Takes one slot of the organization's limit atomically; false when the limit is reached. */
  async function reserveSlot(organizationId: string, max: number): Promise<boolean> {
    try {
      // An existing counter at the limit does not match, so the upsert tries to insert a second counter with the
      // same _id and fails with E11000: that failure IS the "limit reached" answer, decided by the database.
      await Counters.findOneAndUpdate(
        { _id: organizationId, count: mongoose.trusted({ $lt: max }) },
        { $inc: { count: 1 } },
        { upsert: true, maxTimeMS: MAX_TIME_MS },
      );
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  return {
    async create(record, options = {}) {
      const max = options.maxInOrganization;
      const limited = max !== undefined && max !== null;
      if (limited && !(await reserveSlot(record.organizationId, max))) return { ok: false, reason: 'limit_reached' };
      try {
        await Registrations.create([fromRegistration(record)]);
      } catch (error) {
        // Give the reserved slot back; if even that fails, `db:migrate` recounts.
        if (limited) await adjustCounter(record.organizationId, -1).catch(() => undefined);
        if (!isDuplicateKey(error)) throw error;
        const clientIdError = await explainDuplicate(record);
        if (clientIdError) throw clientIdError;
        return { ok: false, reason: 'duplicate' };
      }
      if (!limited) await adjustCounter(record.organizationId, 1);
      return { ok: true, record: structuredClone(record) };
    },

    async upsert(record) {
      try {
        const result = await Registrations.findOneAndReplace({ _id: record.id, organizationId: record.organizationId }, fromRegistration(record), {
          upsert: true,
          maxTimeMS: MAX_TIME_MS,
          includeResultMetadata: true,
        });
        if (!result.lastErrorObject?.updatedExisting) await adjustCounter(record.organizationId, 1);
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
      return conditionalWrite(filter, attempt, () => readOne(filter.organizationId, filter.id), pendingGuard(filter));
    },

    async delete(filter) {
      const attempt = async () => {
        const doc = await Registrations.findOneAndDelete(writeFilter(filter), { maxTimeMS: MAX_TIME_MS }).lean<RegistrationDocument>();
        if (!doc) return null;
        await adjustCounter(filter.organizationId, -1);
        return toRegistration(doc);
      };
      return conditionalWrite(filter, attempt, () => readOne(filter.organizationId, filter.id), pendingGuard(filter));
    },
  };
}
