/** Change-set storage: the interface of the contract suite and the embedded implementation. */
import { classifyMiss, type ConditionalFilter, type WriteOutcome } from '../../db/conditional-write.js';
import { pageOf, type PageQuery } from '../../db/keyset-page.js';
import { backlogOf, remainingEvents, type OutboxStore } from '../outbox/outbox.model.js';
import type { ChangeSet, ChangeSetChanges, ChangeSetStatus } from './change-sets.model.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export interface ChangeSetWriteFilter extends ConditionalFilter<ChangeSetStatus> {
  registrationId: string;
}

export interface ChangeSetRepository extends OutboxStore<ChangeSet> {
  /** Inserts a new change set (with the proposal's effects in its outbox); a duplicate id or idempotencyKey is refused. */
  create(record: ChangeSet): Promise<{ ok: true; record: ChangeSet } | { ok: false; reason: 'duplicate' }>;
  /** The change set a proposal with this stored Idempotency-Key made, if any. */
  findByIdempotencyKey(organizationId: string, idempotencyKey: string): Promise<ChangeSet | null>;
  get(organizationId: string, registrationId: string, id: string): Promise<ChangeSet | null>;
  list(
    query: PageQuery & { organizationId: string; registrationId: string; status?: ChangeSetStatus },
  ): Promise<ChangeSet[]>;
  /** One conditional update: applies `changes`, adds 1 to `revision`, sets `updatedAt`. */
  update(filter: ChangeSetWriteFilter, changes: ChangeSetChanges, now: Date): Promise<WriteOutcome<ChangeSet>>;
}

export function createMemoryChangeSetRepository(): ChangeSetRepository {
  const byId = new Map<string, ChangeSet>();
  const copy = (record: ChangeSet): ChangeSet => copyPlain(record);
  const find = (organizationId: string, registrationId: string, id: string) => {
    const record = byId.get(id);
    return record && record.organizationId === organizationId && record.registrationId === registrationId
      ? record
      : undefined;
  };

  return {
    async create(record) {
      if (byId.has(record.id)) return { ok: false, reason: 'duplicate' };
      // The unique idempotencyKey index of the mongo store, the same rule here.
      if (
        record.idempotencyKey !== undefined &&
        [...byId.values()].some((c) => c.idempotencyKey === record.idempotencyKey)
      ) {
        return { ok: false, reason: 'duplicate' };
      }
      byId.set(record.id, copy(record));
      return { ok: true, record: copy(record) };
    },
    async findByIdempotencyKey(organizationId, idempotencyKey) {
      const record = [...byId.values()].find(
        (c) => c.organizationId === organizationId && c.idempotencyKey === idempotencyKey,
      );
      return record ? copy(record) : null;
    },
    async get(organizationId, registrationId, id) {
      const record = find(organizationId, registrationId, id);
      return record ? copy(record) : null;
    },
    async list(query) {
      const matching = [...byId.values()].filter(
        (r) =>
          r.organizationId === query.organizationId &&
          r.registrationId === query.registrationId &&
          (query.status === undefined || r.status === query.status),
      );
      return pageOf(matching, query).map(copy);
    },
    async update(filter, changes, now) {
      const current = find(filter.organizationId, filter.registrationId, filter.id);
      const miss = classifyMiss(current, filter);
      if (miss) return { ok: false, reason: miss, current: current && copy(current) };
      const next = new Map<string, unknown>(Object.entries(current as ChangeSet));
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      const record = Object.fromEntries(next) as unknown as ChangeSet;
      record.revision = (current as ChangeSet).revision + 1;
      record.updatedAt = now;
      byId.set(record.id, copy(record));
      return { ok: true, record: copy(record) };
    },
    async outboxBacklog() {
      return backlogOf(byId.values());
    },
    async pendingOutbox(query) {
      return [...byId.values()]
        .filter((r) => r.outboxAt !== undefined && r.outboxAt <= query.before)
        .sort((a, b) => (a.outboxAt as Date).getTime() - (b.outboxAt as Date).getTime())
        .slice(0, query.limit)
        .map(copy);
    },
    async clearOutbox(organizationId, id, eventIds) {
      const record = byId.get(id);
      if (!record || record.organizationId !== organizationId) return;
      const next: ChangeSet = { ...record, outbox: remainingEvents(record.outbox, eventIds) };
      if (next.outbox?.length === 0) {
        delete next.outbox;
        delete next.outboxAt;
      }
      byId.set(id, copy(next));
    },
  };
}
