/**
 * Audit log storage: append and read, nothing else — there is no update or delete, so an entry once written
 * stays as written (append-only by interface). The embedded implementation lives here, mongo in `audit.mongo.ts`.
 */
import { newOrderedId } from '../../ids.js';
import type { AuditEntry, AuditQuery, NewAuditEntry } from './audit.model.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export interface AuditRepository {
  /** Appends the entry; an entry whose `id` is already stored is not appended again (idempotent delivery). */
  append(entry: NewAuditEntry): Promise<AuditEntry>;
  /** Oldest first, ordered by (`at`, `id`). */
  list(query: AuditQuery): Promise<AuditEntry[]>;
}

export function auditEntryFrom(entry: NewAuditEntry, clock: () => Date): AuditEntry {
  const record: AuditEntry = { ...entry, id: entry.id ?? newOrderedId('aud'), at: entry.at ?? clock() };
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as AuditEntry;
}

function matchesAuditQuery(entry: AuditEntry, query: AuditQuery): boolean {
  if (query.organizationId !== undefined && entry.organizationId !== query.organizationId) return false;
  if (query.targetId !== undefined && entry.targetId !== query.targetId) return false;
  if (
    query.registrationId !== undefined &&
    entry.targetId !== query.registrationId &&
    entry.registrationId !== query.registrationId
  ) {
    return false;
  }
  return true;
}

function compare(a: { at: Date; id: string }, b: { at: Date; id: string }): number {
  const byTime = a.at.getTime() - b.at.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function createMemoryAuditRepository(options: { clock?: () => Date } = {}): AuditRepository {
  const clock = options.clock ?? (() => new Date());
  const entries: AuditEntry[] = [];
  const byId = new Map<string, AuditEntry>();
  return {
    async append(entry) {
      const stored = entry.id === undefined ? undefined : byId.get(entry.id);
      if (stored) return copyPlain(stored);
      const record = auditEntryFrom(entry, clock);
      entries.push(copyPlain(record));
      byId.set(record.id, entries[entries.length - 1]);
      return copyPlain(record);
    },
    async list(query) {
      return entries
        .filter((entry) => matchesAuditQuery(entry, query) && (!query.after || compare(entry, query.after) > 0))
        .sort(compare)
        .slice(0, query.limit)
        .map((entry) => copyPlain(entry));
    },
  };
}
