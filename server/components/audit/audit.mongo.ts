/** The audit log on MongoDB: inserts and reads only (append-only), the contract of the embedded repository. */
import mongoose, { type Connection } from 'mongoose';
import { batchedInserts } from '../../db/batched-writes.mongo.js';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { AuditEntry } from './audit.model.js';
import { auditEntryFrom, type AuditRepository } from './audit.repository.js';
import { auditModel, type AuditDocument } from './audit.schema.js';

function toEntry(doc: AuditDocument & { _id: string }): AuditEntry {
  const { _id, ...rest } = doc;
  const entry = Object.fromEntries(
    Object.entries({ id: _id, ...rest }).filter(([, value]) => value !== undefined && value !== null),
  );
  return entry as unknown as AuditEntry;
}

export function createMongoAuditRepository(
  connection: Connection,
  options: { clock?: () => Date } = {},
): AuditRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const clock = options.clock ?? (() => new Date());
  const Audit = auditModel(connection);
  // Entries of concurrent requests go to the log in one insert (write-batcher.ts).
  const inserts = batchedInserts(Audit.collection, { maxTimeMS });
  return {
    async append(entry) {
      const record = auditEntryFrom(entry, clock);
      const { id, ...rest } = record;
      try {
        await inserts.write({ _id: id, ...rest } as never);
      } catch (error) {
        // Delivered before (an outbox replay): the `_id` decides, the stored entry stands.
        if (!isDuplicateKey(error)) throw error;
        const stored = await Audit.findById(id).lean<AuditDocument & { _id: string }>().maxTimeMS(maxTimeMS);
        if (stored) return toEntry(stored);
        throw error;
      }
      return record;
    },
    async list(query) {
      const and: Record<string, unknown>[] = [];
      if (query.organizationId !== undefined) and.push({ organizationId: query.organizationId });
      if (query.targetId !== undefined) and.push({ targetId: query.targetId });
      if (query.registrationId !== undefined) {
        and.push({ $or: [{ targetId: query.registrationId }, { registrationId: query.registrationId }] });
      }
      if (query.after) {
        and.push({
          $or: [
            { at: mongoose.trusted({ $gt: query.after.at }) },
            { at: query.after.at, _id: mongoose.trusted({ $gt: query.after.id }) },
          ],
        });
      }
      // Operators are marked trusted one by one (sanitizeFilter is on for the connection); values are typed strings.
      const docs = await Audit.find(and.length ? { $and: and } : {})
        .sort({ at: 1, _id: 1 })
        .limit(query.limit)
        .lean<(AuditDocument & { _id: string })[]>()
        .maxTimeMS(maxTimeMS);
      return docs.map(toEntry);
    },
  };
}
