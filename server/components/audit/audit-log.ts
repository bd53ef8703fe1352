/**
 * Reading the audit log: undelivered outbox entries are delivered first, so a reader never misses an entry of an
 * acknowledged transition whose delivery a crash or an outage postponed.
 */
import type { AuditEntry, AuditQuery } from './audit.model.js';
import type { AuditRepository } from './audit.repository.js';
import type { OutboxDeps } from '../outbox/outbox-delivery.js';
import { drainOutbox } from '../outbox/outbox-drain.js';

/** The outbox's deps, and the audit log to read. */
type AuditReadDeps = OutboxDeps & { store: { audit: Pick<AuditRepository, 'list'> } };

export async function readAuditLog(deps: AuditReadDeps, query: AuditQuery): Promise<AuditEntry[]> {
  try {
    await drainOutbox(deps);
  } catch (error) {
    // What is stored can still be shown; the periodic drain delivers the rest.
    deps.logger?.warn({ err: error }, 'outbox drain before an audit read failed');
  }
  return deps.store.audit.list(query);
}
