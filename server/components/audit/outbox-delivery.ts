/**
 * Delivers the effects records carry in their outbox (store/outbox.ts): audit entries to the audit log,
 * provisioning steps to the provisioning outbox, then removes them from the record. Every delivery is idempotent,
 * so it runs right after each transition, at start, before audit reads and periodically, on any instance, and a
 * crash at any point only means the next run delivers what is left.
 */
import { AppError } from '../../../lib/app-error.js';
import type { Logger } from '../../../lib/logger.js';
import type { Store } from '../../deps.js';
import type { OutboxDelivery, OutboxEvent, OutboxFields } from '../../store/outbox.js';
import type { ProvisioningHook } from '../provisioning/provisioning-hook.js';

export type OutboxHolder = 'registrations' | 'changeSets';

export interface OutboxDeps {
  store: Pick<Store, 'audit' | 'provisioning' | OutboxHolder>;
  clock: () => Date;
  /** Nudges the provisioning worker after a step is stored; without it the worker's poll finds the step. */
  provisioning?: ProvisioningHook;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

const HOLDERS: readonly OutboxHolder[] = ['registrations', 'changeSets'];
const PAGE = 100;
/** Pages per holder per drain: bounds one run even if some record's outbox cannot be cleared. */
const MAX_PAGES = 20;

/** Delivers events in order; the ids delivered before the first failure, and that failure. */
async function deliverEvents(
  deps: OutboxDeps,
  events: readonly OutboxEvent[],
): Promise<{ delivered: string[]; error?: unknown }> {
  const delivered: string[] = [];
  try {
    for (const event of events) {
      if (event.kind === 'audit') await deps.store.audit.append(event.entry);
      else if (deps.provisioning) await deps.provisioning.enqueue(event.step);
      else await deps.store.provisioning.enqueue({ ...event.step, now: deps.clock() });
      delivered.push(event.id);
    }
  } catch (error) {
    return { delivered, error };
  }
  return { delivered };
}

/**
 * What a repository calls right after the write that carried the events (with the record still locked): never
 * fails the write; what is not delivered now stays for the drain.
 */
export function outboxDelivery(deps: OutboxDeps): OutboxDelivery {
  return async (events) => {
    const { delivered, error } = await deliverEvents(deps, events);
    if (error !== undefined) deps.logger?.warn({ err: error }, 'outbox not delivered yet; the drain will deliver it');
    return delivered;
  };
}

/** Delivers one record's outbox and clears what was delivered; throws when a delivery fails (the rest stays). */
async function deliverOutbox(
  deps: OutboxDeps,
  holder: OutboxHolder,
  record: OutboxFields & { organizationId: string; id: string },
): Promise<void> {
  const events = record.outbox ?? [];
  if (events.length === 0) return;
  const { delivered, error } = await deliverEvents(deps, events);
  if (delivered.length > 0) await deps.store[holder].clearOutbox(record.organizationId, record.id, delivered);
  if (error !== undefined) throw error instanceof Error ? error : new Error('outbox delivery failed', { cause: error });
}

/** The record as callers see it: its outbox is storage bookkeeping. */
export function withoutOutbox<T extends OutboxFields>(record: T): T {
  const { outbox: _outbox, outboxAt: _outboxAt, ...rest } = record;
  return rest as T;
}

/**
 * Right after a committed write: delivers its outbox, never failing the request (the write, with its effects, is
 * what was acknowledged; the drain delivers later whatever fails now). Returns the record without its outbox.
 */
export async function deliverAfterCommit<T extends OutboxFields & { organizationId: string; id: string }>(
  deps: OutboxDeps,
  holder: OutboxHolder,
  record: T,
): Promise<T> {
  try {
    await deliverOutbox(deps, holder, record);
  } catch (error) {
    deps.logger?.warn({ err: error, holder, id: record.id }, 'outbox not delivered yet; the drain will deliver it');
  }
  return withoutOutbox(record);
}

/** A record another request is writing right now: that writer delivers its outbox, or the next drain does. */
const isBusy = (error: unknown) => error instanceof AppError && error.code === 'conflict';

/**
 * Delivers every outbox pending since `olderThanMs` ago or earlier; the number of records delivered. A record
 * being written by a request is skipped, not a reason to stop (one hot record must not hold back the others'
 * audit entries); any other failure — the database gone, above all — ends the run.
 */
export async function drainOutbox(deps: OutboxDeps, options: { olderThanMs?: number } = {}): Promise<number> {
  const before = new Date(deps.clock().getTime() - (options.olderThanMs ?? 0));
  let count = 0;
  for (const holder of HOLDERS) {
    const skipped = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page += 1) {
      // Skipped records are still pending, so they come back on every page: asked for beyond them.
      const limit = PAGE + skipped.size;
      const pending = await deps.store[holder].pendingOutbox({ before, limit });
      const due = pending.filter((record) => !skipped.has(record.id));
      for (const record of due) {
        try {
          await deliverOutbox(deps, holder, record);
          count += 1;
        } catch (error) {
          if (!isBusy(error)) throw error;
          skipped.add(record.id);
        }
      }
      if (pending.length < limit || due.length === 0) break;
    }
  }
  return count;
}

export interface OutboxDrain {
  /** One drain now (single flight: a call during a run waits for it and runs once more). */
  runDue(): Promise<number>;
  /** Drains now and then every `intervalMs`, skipping outboxes younger than the interval (delivered inline). */
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

export function createOutboxDrain(deps: OutboxDeps): OutboxDrain {
  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let graceMs = 0;

  function runDue(): Promise<number> {
    running ??= drainOutbox(deps, { olderThanMs: graceMs }).finally(() => {
      running = undefined;
    });
    return running;
  }
  const kick = () => void runDue().catch((error: unknown) => deps.logger?.error({ err: error }, 'outbox drain failed'));

  return {
    runDue,
    start(intervalMs) {
      if (timer) return;
      kick();
      graceMs = intervalMs;
      timer = setInterval(kick, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
