/**
 * Reading the audit log: undelivered outbox entries are delivered first, so a reader never misses an entry of an
 * acknowledged transition whose delivery a crash or an outage postponed.
 */
import type { AuditEntry, AuditQuery } from './audit.model.js';
import { drainOutbox, type OutboxDeps } from './outbox-delivery.js';

export async function readAuditLog(deps: OutboxDeps, query: AuditQuery): Promise<AuditEntry[]> {
  try {
    await drainOutbox(deps);
  } catch (error) {
    // What is stored can still be shown; the periodic drain delivers the rest.
    deps.logger?.warn({ err: error }, 'outbox drain before an audit read failed');
  }
  return deps.store.audit.list(query);
}
