/**
 * `gatehouse/service`: the registration service as a library. `createApp(deps)` builds the Express application (it
 * never listens); its settings are validated exactly as the `registration-service` command validates its environment.
 */
import { loadSettings } from '../lib/settings/load-settings.js';
import type { SettingsInput } from '../lib/settings/declaration.js';
import { serviceSettings, type ServiceConfig } from './config.js';

export { createApp } from './app.js';
export { loadServiceConfig, serviceSettings, type ServiceConfig } from './config.js';
export type { ApiDeps, Store } from './deps.js';
export { createMemoryStore } from './store/memory-store.js';
export { createMongoStore, type MongoStore, type MongoStoreOptions } from './store/mongo-store.js';
export { createLogger, silentLogger, type Logger } from '../lib/logger.js';

/** The service's settings given in code, by their camelCase keys (`cursorSecret`, `apiAuthIssuer`…). */
export type ServiceOptions = SettingsInput<typeof serviceSettings.settings>;

/**
 * Settings from code, checked like the environment: an unknown key (with a did-you-mean), a wrong type or enum, a
 * missing required setting or a broken rule between settings is one `invalid_settings` error listing every problem.
 */
export function serviceConfig(options: ServiceOptions): ServiceConfig {
  return loadSettings(serviceSettings, { given: options });
}
