/**
 * Registration storage: the interface every implementation passes the contract suite against
 * (test/server/contract/), and the embedded in-process implementation.
 */
import { classifyMiss, type ConditionalFilter, type WriteOutcome } from '../../db/conditional-write.js';
import { pageOf, type PageQuery } from '../../db/keyset-page.js';
import {
  backlogOf,
  remainingEvents,
  type OutboxDelivery,
  type OutboxEvent,
  type OutboxStore,
} from '../outbox/outbox.model.js';
import {
  awaitsReview,
  type Registration,
  type RegistrationChanges,
  type RegistrationStatus,
} from './registrations.model.js';
import type { ClientSecretState } from '../provisioning/client-secret.model.js';
import { copyPlain } from '../../../lib/copy-plain.js';

export interface RegistrationWriteFilter extends ConditionalFilter<RegistrationStatus> {
  /** `null`: no change set may be open; a string: exactly that one must be. */
  pendingChangeSetId?: string | null;
}

export type CreateOutcome =
  | { ok: true; record: Registration }
  | { ok: false; reason: 'limit_reached' | 'duplicate' }
  /** A record with the same `idempotencyKey` exists (a retried create): it is returned instead. */
  | { ok: false; reason: 'idempotency_key_taken'; existing: Registration };

export interface RegistrationRepository extends OutboxStore<Registration> {
  /**
   * Inserts a new record; refused when the organization already holds `maxInOrganization` registrations, or when
   * a record with its `idempotencyKey` exists (unique, checked before the quota: a retry is never refused by it).
   */
  create(
    record: Registration,
    options?: { maxInOrganization?: number | null; deliver?: OutboxDelivery },
  ): Promise<CreateOutcome>;
  /** The record a create with this `idempotencyKey` made, if any. */
  findByIdempotencyKey(organizationId: string, idempotencyKey: string): Promise<Registration | null>;
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
  /**
   * One conditional update: applies `changes`, adds 1 to `revision`, sets `updatedAt`, and appends `outbox` events
   * to the record's outbox in the same write. With `deliver`, the outbox is delivered right after the write while
   * no other write of the record can run (the mongo record lock is still held), and what it delivered is removed;
   * the outcome's record is the record after that.
   */
  update(
    filter: RegistrationWriteFilter,
    changes: RegistrationChanges,
    now: Date,
    outbox?: readonly OutboxEvent[],
    deliver?: OutboxDelivery,
  ): Promise<WriteOutcome<Registration>>;
  /**
   * Replaces the record's client secret state (`null` removes it) if the stored one is still at `expectedVersion`
   * (`null`: none is stored) and the status is allowed — a miss on the version is `guard_failed` — with `outbox`
   * events appended in the same write and delivered like `update`'s. Revision and `updatedAt` stay as they are.
   */
  updateSecret(
    filter: Pick<ConditionalFilter<RegistrationStatus>, 'organizationId' | 'id' | 'statusIn'>,
    expectedVersion: number | null,
    secret: ClientSecretState | null,
    now: Date,
    outbox?: readonly OutboxEvent[],
    deliver?: OutboxDelivery,
  ): Promise<WriteOutcome<Registration>>;
  /**
   * One conditional delete; the outcome carries the removed record. With `outbox` events the record becomes a
   * tombstone holding them (invisible to every read) until `clearOutbox` has delivered them, then it is gone.
   */
  delete(
    filter: RegistrationWriteFilter,
    now?: Date,
    outbox?: readonly OutboxEvent[],
    deliver?: OutboxDelivery,
  ): Promise<WriteOutcome<Registration>>;
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

/** The record with `changes` applied as an update applies them (null removes a field, undefined leaves it). */
export function applyRegistrationChanges(record: Registration, changes: RegistrationChanges): Registration {
  const next = new Map<string, unknown>(Object.entries(record));
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  return Object.fromEntries(next) as unknown as Registration;
}

export function createMemoryRegistrationRepository(): RegistrationRepository {
  const byId = new Map<string, Registration>();
  // Each organization's records (tombstones too): its list, count and quota check read these, never every
  // organization's — at 100,000 registrations a scan of all of them made a 3-registration organization's list 25–70 ms.
  const byOrganization = new Map<string, Map<string, Registration>>();
  const idByClientId = new Map<string, string>();
  // The unique idempotencyKey index of the mongo store, the same rule here.
  const idByIdempotencyKey = new Map<string, string>();
  const copy = (record: Registration): Registration => copyPlain(record);

  function claimClientId(record: Registration): void {
    if (record.clientId === undefined) return;
    const owner = idByClientId.get(record.clientId);
    if (owner !== undefined && owner !== record.id) throw new DuplicateClientIdError(record.clientId);
  }
  function store(record: Registration): Registration {
    const previous = byId.get(record.id);
    if (previous?.clientId !== undefined) idByClientId.delete(previous.clientId);
    if (record.clientId !== undefined) idByClientId.set(record.clientId, record.id);
    if (record.idempotencyKey !== undefined) idByIdempotencyKey.set(record.idempotencyKey, record.id);
    const stored = copy(record);
    byId.set(record.id, stored);
    let organizationRecords = byOrganization.get(record.organizationId);
    if (!organizationRecords)
      byOrganization.set(record.organizationId, (organizationRecords = new Map<string, Registration>()));
    organizationRecords.set(record.id, stored);
    return record;
  }
  /** Delivers a just-written record's outbox and removes what was delivered; the record as it is then. */
  async function settle(record: Registration, deliver: OutboxDelivery | undefined): Promise<Registration> {
    if (!deliver || !record.outbox?.length) return copy(record);
    const delivered = await deliver(record.outbox);
    if (delivered.length > 0) await repository.clearOutbox(record.organizationId, record.id, delivered);
    return copy(byId.get(record.id) ?? record);
  }
  function forget(record: Registration): void {
    byId.delete(record.id);
    const organizationRecords = byOrganization.get(record.organizationId);
    organizationRecords?.delete(record.id);
    if (organizationRecords?.size === 0) byOrganization.delete(record.organizationId);
    if (record.clientId !== undefined) idByClientId.delete(record.clientId);
    if (record.idempotencyKey !== undefined) idByIdempotencyKey.delete(record.idempotencyKey);
  }
  /** Live records only: a tombstone is invisible to every read and write but the outbox's. */
  function inOrganization(organizationId: string, id: string): Registration | undefined {
    const record = byId.get(id);
    return record && record.organizationId === organizationId && record.removedAt === undefined ? record : undefined;
  }
  const live = () => [...byId.values()].filter((r) => r.removedAt === undefined);
  const liveIn = (organizationId: string) =>
    [...(byOrganization.get(organizationId)?.values() ?? [])].filter((r) => r.removedAt === undefined);
  function withOutbox(record: Registration, outbox: readonly OutboxEvent[] | undefined, now: Date): Registration {
    if (!outbox || outbox.length === 0) return record;
    return {
      ...record,
      outbox: [...(record.outbox ?? []), ...copyPlain(outbox)],
      outboxAt: record.outboxAt ?? now,
    };
  }

  const repository: RegistrationRepository = {
    async create(record, options = {}) {
      if (byId.has(record.id)) return { ok: false, reason: 'duplicate' };
      const sameKey = record.idempotencyKey === undefined ? undefined : idByIdempotencyKey.get(record.idempotencyKey);
      if (sameKey !== undefined) {
        const existing = byId.get(sameKey) as Registration;
        if (existing.removedAt === undefined)
          return { ok: false, reason: 'idempotency_key_taken', existing: copy(existing) };
        return { ok: false, reason: 'duplicate' };
      }
      const max = options.maxInOrganization;
      if (max !== undefined && max !== null) {
        if (liveIn(record.organizationId).length >= max) return { ok: false, reason: 'limit_reached' };
      }
      claimClientId(record);
      store(record);
      return { ok: true, record: await settle(record, options.deliver) };
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
    async findByIdempotencyKey(organizationId, idempotencyKey) {
      const id = idByIdempotencyKey.get(idempotencyKey);
      const record = id === undefined ? undefined : inOrganization(organizationId, id);
      return record ? copy(record) : null;
    },
    async get(organizationId, id) {
      const record = inOrganization(organizationId, id);
      return record ? copy(record) : null;
    },
    async list(query) {
      const matching = liveIn(query.organizationId).filter(
        (r) => query.status === undefined || r.status === query.status,
      );
      return pageOf(matching, query).map(copy);
    },
    async count(organizationId) {
      return liveIn(organizationId).length;
    },
    async listAwaitingReview(query) {
      return (query.organizationId === undefined ? live() : liveIn(query.organizationId))
        .filter(awaitsReview)
        .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, query.limit)
        .map(copy);
    },
    async update(filter, changes, now, outbox, deliver) {
      const current = inOrganization(filter.organizationId, filter.id);
      const miss = classifyMiss(current, filter, pendingGuard(filter));
      if (miss) return { ok: false, reason: miss, current: current && copy(current) };
      const next = withOutbox(applyRegistrationChanges(current as Registration, changes), outbox, now);
      next.revision = (current as Registration).revision + 1;
      next.updatedAt = now;
      claimClientId(next);
      store(next);
      return { ok: true, record: await settle(next, deliver) };
    },
    async updateSecret(filter, expectedVersion, secret, now, outbox, deliver) {
      const current = inOrganization(filter.organizationId, filter.id);
      const miss = classifyMiss(current, filter, (record) => (record.secret?.version ?? null) === expectedVersion);
      if (miss) return { ok: false, reason: miss, current: current && copy(current) };
      const next = withOutbox(applyRegistrationChanges(current as Registration, { secret }), outbox, now);
      store(next);
      return { ok: true, record: await settle(next, deliver) };
    },
    async delete(filter, now = new Date(), outbox, deliver) {
      const current = inOrganization(filter.organizationId, filter.id);
      const miss = classifyMiss(current, filter, pendingGuard(filter));
      if (miss) return { ok: false, reason: miss, current: current && copy(current) };
      const removed = current as Registration;
      if (outbox && outbox.length > 0)
        await settle(store({ ...withOutbox(removed, outbox, now), removedAt: now }), deliver);
      else forget(removed);
      return { ok: true, record: copy(removed) };
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
      const outbox = remainingEvents(record.outbox, eventIds);
      if (outbox.length === 0 && record.removedAt !== undefined) return forget(record);
      const next: Registration = { ...record, outbox, outboxAt: record.outboxAt };
      if (outbox.length === 0) {
        delete next.outbox;
        delete next.outboxAt;
      }
      // `next` shares its nested values only with the stored record it replaces, which nothing else holds.
      byId.set(id, next);
      byOrganization.get(organizationId)?.set(id, next);
    },
  };
  return repository;
}
