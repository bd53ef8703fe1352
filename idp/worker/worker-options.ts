/**
 * Worker variables → IdP options, through the same settings table and loader as the CLI (idp/settings.ts):
 * every `IDP_*` setting is a worker variable. Variables set as JSON (wrangler `vars` may hold booleans, numbers,
 * lists, objects) are turned back into the text the CLI would read. Settings that need a file system, a socket
 * or MongoDB are refused with the reason, instead of being silently ignored.
 */
import { ConfigError, loadConfig } from '../../lib/config.js';
import { optionsFrom } from '../cli.js';
import type { IdpOptions } from '../options.js';
import { idpSettings, type IdpSettings } from '../settings.js';

/** Settings without meaning on a worker, and why (the listener is the runtime's; state lives in D1). */
export const WORKER_IGNORED = {
  port: 'the runtime owns the listener',
  host: 'the runtime owns the listener',
  requireDatabaseAtStart: 'D1 is a binding: readiness reports it, there is no connection to wait for at start',
} as const;
const WORKER_REFUSED: Partial<Record<keyof IdpSettings, string>> = {
  jwksFile: 'a worker has no file system: the signing keys are generated once and kept in D1',
  saveJwks: 'a worker has no file system: the signing keys are generated once and kept in D1',
  databaseUrl: 'the worker stores everything in its D1 binding',
  enableTestingApi:
    'the testing API is served by the Node IdP only (a deployed worker must not mint tokens for anyone)',
  allowTestingApiOnPublicHost: 'the testing API is served by the Node IdP only',
  tenants: 'a worker serves one issuer: deploy one worker per tenant',
};

function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  return JSON.stringify(value);
}

export interface WorkerSettings {
  settings: IdpSettings;
  options: IdpOptions;
}

/** Reads every `IDP_*` variable from the worker's env; throws one Error listing every problem. */
export function workerSettingsFrom(env: Record<string, unknown>): WorkerSettings {
  const text: Record<string, string | undefined> = {};
  for (const setting of Object.values(idpSettings)) text[setting.env] = asText(env[setting.env]);
  let settings: IdpSettings;
  try {
    settings = loadConfig(idpSettings, text);
  } catch (error) {
    if (error instanceof ConfigError) throw new Error(error.problems.join('; '));
    throw error;
  }
  const refused = Object.entries(WORKER_REFUSED)
    .filter(([key]) => {
      const value = settings[key as keyof IdpSettings];
      return value !== undefined && value !== false;
    })
    .map(([key, why]) => `${idpSettings[key as keyof IdpSettings].env} is not available on the worker: ${why}`);
  if (refused.length) throw new Error(refused.join('; '));
  const { port: _port, host: _host, requireDatabaseAtStart: _wait, ...options } = optionsFrom(settings);
  return { settings, options };
}
