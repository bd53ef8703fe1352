/**
 * Worker variables → the IdP's configuration, through the same settings declaration and loader as the CLI
 * (idp/settings.ts): every `IDP_*` setting is a worker variable, and variables set as JSON (wrangler `vars` may hold
 * booleans, numbers, lists, objects) are taken as values of the setting's type. Settings that need a file system, a
 * socket or MongoDB are refused with the reason, instead of being silently ignored.
 */
import type { SettingDeclarations } from '../../lib/settings/declaration.js';
import { loadSettings } from '../../lib/settings/load-settings.js';
import { idpError } from '../errors.js';
import { idpSettings, type IdpConfig } from '../settings.js';

/** Settings without meaning on a worker, and why (the listener is the runtime's; state lives in D1). */
export const WORKER_IGNORED = {
  port: 'the runtime owns the listener',
  host: 'the runtime owns the listener',
  requireDatabaseAtStart: 'D1 is a binding: readiness reports it, there is no connection to wait for at start',
} as const;

/** Settings a worker refuses, and why. */
export const WORKER_REFUSED: Partial<Record<keyof IdpConfig, string>> = {
  jwksFile: 'a worker has no file system: the signing keys are generated once and kept in D1',
  saveJwks: 'a worker has no file system: the signing keys are generated once and kept in D1',
  databaseUrl: 'the worker stores everything in its D1 binding',
  enableTestingApi:
    'the testing API is served by the Node IdP only (a deployed worker must not mint tokens for anyone)',
  allowTestingApiOnPublicHost: 'the testing API is served by the Node IdP only',
  tenants: 'a worker serves one issuer: deploy one worker per tenant',
};

/** Reads every `IDP_*` variable from the worker's env; throws one error listing every problem. */
export function workerConfigFrom(env: Record<string, unknown>): IdpConfig {
  const config = loadSettings(idpSettings, { env });
  const refused = Object.entries(WORKER_REFUSED)
    .filter(([key]) => {
      const value = config[key as keyof IdpConfig];
      return value !== undefined && value !== false && !(Array.isArray(value) && value.length === 0);
    })
    .map(
      ([key, why]) =>
        `${(idpSettings.settings as SettingDeclarations)[key].env} is not available on the worker: ${why}`,
    );
  if (refused.length) throw idpError('unavailable_on_worker', refused.join('; '));
  return config;
}
