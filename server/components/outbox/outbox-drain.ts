/**
 * The outbox drain: delivers what writes could not deliver right after they committed (a crash, an outage), at
 * start, before audit reads and periodically, on any instance (outbox-delivery.ts says why that is safe).
 */
import { isAppError } from '../../../lib/app-error.js';
import { deliverOutbox, type OutboxDeps, type OutboxHolder } from './outbox-delivery.js';
import { createBackgroundRunner } from '../../../lib/background-runner.js';

const HOLDERS: readonly OutboxHolder[] = ['registrations', 'changeSets'];
const PAGE = 100;
/** Pages per holder per drain: bounds one run even if some record's outbox cannot be cleared. */
const MAX_PAGES = 20;

/** A record another request is writing right now: that writer delivers its outbox, or the next drain does. */
const isBusy = (error: unknown) => isAppError(error) && error.code === 'conflict';

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
  let graceMs = 0;
  const runner = createBackgroundRunner(
    () => drainOutbox(deps, { olderThanMs: graceMs }),
    (error) => deps.logger?.error({ err: error }, 'outbox drain failed'),
  );
  return {
    runDue: () => runner.runDue(),
    start(intervalMs) {
      // A pass reads the grace as it begins, and the kick begins one at once: this first one, with none, delivers
      // what an instance that died left; the later ones skip outboxes younger than the interval.
      runner.kick();
      graceMs = intervalMs;
      runner.start(intervalMs);
    },
    stop: () => runner.stop(),
  };
}
