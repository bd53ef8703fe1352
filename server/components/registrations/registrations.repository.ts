/**
 * Registration storage: the interface every implementation passes the contract suite against
 * (test/server/contract/), and the embedded in-process implementation.
 */
import { classifyMiss, type ConditionalFilter, type WriteOutcome } from '../../store/conditional-write.js';
import { pageOf, type PageQuery } from '../../store/keyset-page.js';
import type { Registration, RegistrationChanges, RegistrationStatus } from './registrations.model.js';

export interface RegistrationWriteFilter extends ConditionalFilter<RegistrationStatus> {
  /** `null`: no change set may be open; a string: exactly that one must be. */
  pendingChangeSetId?: string | null;
}

export type CreateOutcome = { ok: true; record: Registration } | { ok: false; reason: 'limit_reached' | 'duplicate' };

export interface RegistrationRepository {
  /** Inserts a new record; refused when the organization already holds `maxInOrganization` registrations. */
  create(record: Registration, options?: { maxInOrganization?: number | null }): Promise<CreateOutcome>;
  /** Inserts or replaces by id, for seeding and importing existing clients (any status). */
  upsert(record: Registration): Promise<Registration>;
  get(organizationId: string, id: string): Promise<Registration | null>;
  list(query: PageQuery & { organizationId: string; status?: RegistrationStatus }): Promise<Registration[]>;
  count(organizationId: string): Promise<number>;
  /**
   * The review queue: registrations in `pending_review` or holding a pending change set, in every organization or
   * one, oldest first by `updatedAt` (the moment they started waiting: nothing else writes them while they wait).
   */
  listAwaitingReview(query: { organizationId?: string; limit: number }): Promise<Registration[]>;
  /** One conditional update: applies `changes`, adds 1 to `revision`, sets `updatedAt`. */
  update(filter: RegistrationWriteFilter, changes: RegistrationChanges, now: Date): Promise<WriteOutcome<Registration>>;
  /** One conditional delete; the outcome carries the removed record. */
  delete(filter: RegistrationWriteFilter): Promise<WriteOutcome<Registration>>;
}

/** Raised when a write would give two registrations the same `clientId`. */
export class DuplicateClientIdError extends Error {
  constructor(clientId: string) {
    super(`clientId ${clientId} is already used by another registration`);
    this.name = 'DuplicateClientIdError';
  }
}

function pendingGuard(filter: RegistrationWriteFilter) {
  return (record: Registration) =>
    filter.pendingChangeSetId === undefined || (record.pendingChangeSetId ?? null) === filter.pendingChangeSetId;
}

export function applyRegistrationChanges(record: Registration, changes: RegistrationChanges): Registration {
  const next: Record<string, unknown> = { ...record };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as unknown as Registration;
}

export function createMemoryRegistrationRepository(): RegistrationRepository {
  const byId = new Map<string, Registration>();
  const idByClientId = new Map<string, string>();
  const copy = (record: Registration): Registration => structuredClone(record);

  function claimClientId(record: Registration): void {
    if (record.clientId === undefined) return;
    const owner = idByClientId.get(record.clientId);
    if (owner !== undefined && owner !== record.id) throw new DuplicateClientIdError(record.clientId);
  }
  function store(record: Registration): void {
    const previous = byId.get(record.id);
    if (previous?.clientId !== undefined) idByClientId.delete(previous.clientId);
    if (record.clientId !== undefined) idByClientId.set(record.clientId, record.id);
    byId.set(record.id, copy(record));
  }
  function inOrganization(organizationId: string, id: string): Registration | undefined {
    const record = byId.get(id);
    return record && record.organizationId === organizationId ? record : undefined;
  }

  return {
    async create(record, options = {}) {
      if (byId.has(record.id)) return { ok: false, reason: 'duplicate' };
      const max = options.maxInOrganization;
      if (max !== undefined && max !== null) {
        let count = 0;
        for (const r of byId.values()) if (r.organizationId === record.organizationId) count += 1;
        if (count >= max) return { ok: false, reason: 'limit_reached' };
      }
      claimClientId(record);
      store(record);
      return { ok: true, record: copy(record) };
    },
    async upsert(record) {
      const existing = byId.get(record.id);
      if (existing && existing.organizationId !== record.organizationId) {
        throw new Error(`registration ${record.id} belongs to another organization`);
      }
      claimClientId(record);
      store(record);
      return copy(record);
    },
    async get(organizationId, id) {
      const record = inOrganization(organizationId, id);
      return record ? copy(record) : null;
    },
    async list(query) {
      const matching = [...byId.values()].filter(
        (r) => r.organizationId === query.organizationId && (query.status === undefined || r.status === query.status),
      );
      return pageOf(matching, query).map(copy);
    },
    async count(organizationId) {
      let count = 0;
      for (const r of byId.values()) if (r.organizationId === organizationId) count += 1;
      return count;
    },
    async listAwaitingReview(query) {
      return [...byId.values()]
        .filter(
          (r) =>
            (query.organizationId === undefined || r.organizationId === query.organizationId) &&
            (r.status === 'pending_review' || r.pendingChangeSetId !== undefined),
        )
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, query.limit)
        .map(copy);
    },
    async update(filter, changes, now) {
      const current = inOrganization(filter.organizationId, filter.id);
      const miss = classifyMiss(current, filter, pendingGuard(filter));
      if (miss) return { ok: false, reason: miss, current: current && copy(current) };
      const next = applyRegistrationChanges(current as Registration, changes);
      next.revision = (current as Registration).revision + 1;
      next.updatedAt = now;
      claimClientId(next);
      store(next);
      return { ok: true, record: copy(next) };
    },
    async delete(filter) {
      const current = inOrganization(filter.organizationId, filter.id);
      const miss = classifyMiss(current, filter, pendingGuard(filter));
      if (miss) return { ok: false, reason: miss, current: current && copy(current) };
      byId.delete(filter.id);
      if (current?.clientId !== undefined) idByClientId.delete(current.clientId);
      return { ok: true, record: copy(current as Registration) };
    },
  };
}
