/**
 * The stores an IdP serves from, one per issuer: the store given in code (the edge worker's D1), else MongoDB at
 * `databaseUrl` (one database per tenant: `<database>_<tenant>`), else memory.
 */
import { warnOnStuck } from '../lib/mongo-monitor-watchdog.js';
import { createMemoryStore } from './adapters/memory.js';
import type { IdpStore } from './adapters/store.js';
import type { IdpConfig } from './settings.js';

export async function openStores(config: IdpConfig): Promise<IdpStore[]> {
  const { tenants, databaseUrl } = config;
  if (config.store) return [config.store];
  if (!databaseUrl) return Array.from({ length: Math.max(1, tenants.length) }, () => createMemoryStore());
  // Loaded on demand: runtimes without MongoDB (the edge worker) never pull in the driver.
  const { openMongoStore } = await import('./adapters/mongo.js');
  const base = new URL(databaseUrl).pathname.replace(/^\//, '') || 'idp';
  const onStuckMonitor = warnOnStuck(config.logger);
  return tenants.length
    ? tenants.map((t) => openMongoStore(databaseUrl, { database: `${base}_${t}`, onStuckMonitor }))
    : [openMongoStore(databaseUrl, { onStuckMonitor })];
}
