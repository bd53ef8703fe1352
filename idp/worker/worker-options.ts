/**
 * Worker variables → the IdP's configuration, through the same settings declaration and loader as the CLI
 * (idp/settings.ts): every `IDP_*` setting is a worker variable, and variables set as JSON (wrangler `vars` may hold
 * booleans, numbers, lists, objects) are taken as values of the setting's type. Settings that need a file system, a
 * socket or MongoDB are refused with the reason, instead of being silently ignored.
 */
import type { SettingDeclarations } from '../../lib/settings/declaration.js';
import { loadSettings } from '../../lib/settings/load-settings.js';
import { settingsProblems } from '../../lib/settings/settings-error.js';
import { idpError } from '../errors.js';
import { idpSettings, type IdpConfig } from '../settings.js';

/**
 * Settings a worker refuses, and why. Three more are read and mean nothing there: port and host (the runtime owns the
 * listener) and requireDatabaseAtStart (D1 is a binding: readiness reports it, there is no connection to wait for).
 */
const WORKER_REFUSED: Partial<Record<keyof IdpConfig, string>> = {
  jwksFile: 'a worker has no file system: the signing keys are generated once and kept in D1',
  saveJwks: 'a worker has no file system: the signing keys are generated once and kept in D1',
  databaseUrl: 'the worker stores everything in its D1 binding',
  enableTestingApi:
    'the testing API is served by the Node IdP only (a deployed worker must not mint tokens for anyone)',
  allowTestingApiOnPublicHost: 'the testing API is served by the Node IdP only',
  tenants: 'a worker serves one issuer: deploy one worker per tenant',
  personality:
    'a worker serves one issuer at the URL it is deployed on (a personality’s issuer path is served by the Node IdP only)',
  https: 'the runtime terminates TLS (a deployed worker is served over https by Cloudflare)',
  tlsCert: 'the runtime terminates TLS (a deployed worker is served over https by Cloudflare)',
  tlsKey: 'the runtime terminates TLS (a deployed worker is served over https by Cloudflare)',
  tlsCaOut: 'the runtime terminates TLS (a deployed worker is served over https by Cloudflare)',
};

/** Whether a variable asks for something (set, and not an "off" of an on/off setting). */
function asksFor(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false;
  return !(typeof value === 'string' && /^(false|0|no|off)$/i.test(value.trim()));
}

/**
 * Reads every `IDP_*` variable from the worker's env; throws one error listing every problem: the refused settings
 * first (a problem that names one of them is explained by its refusal), then the invalid values.
 */
export function workerConfigFrom(env: Record<string, unknown>): IdpConfig {
  const settings: SettingDeclarations = idpSettings.settings;
  const refused = Object.entries(WORKER_REFUSED)
    .map(([key, why]) => [settings[key].env!, why] as const)
    .filter(([name]) => asksFor(env[name]) || asksFor(env[`${name}_FILE`]));
  try {
    const config = loadSettings(idpSettings, { env });
    if (refused.length === 0) return config;
  } catch (error) {
    const problems = settingsProblems(error);
    if (!problems || refused.length === 0) throw error;
    const unexplained = problems.filter((p) => !refused.some(([name]) => p.includes(name)));
    throw idpError('unavailable_on_worker', [...refusals(refused), ...unexplained].join('; '));
  }
  throw idpError('unavailable_on_worker', refusals(refused).join('; '));
}

function refusals(refused: readonly (readonly [string, string])[]): string[] {
  return refused.map(([name, why]) => `${name} is not available on the worker: ${why}`);
}
