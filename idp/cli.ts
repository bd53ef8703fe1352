/**
 * The `idp` command: flags and `IDP_*` environment (flag beats environment), validated all at once; an invalid
 * value exits 1 with one readable line. Serves until `io.signal` aborts, then closes and returns 0.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig, type Setting } from '../lib/config.js';
import { createLogger } from '../lib/logger.js';
import { parseDefaultUser, parseUsers, type IdpUser } from './accounts.js';
import { createIdp, type RunningIdp } from './create-idp.js';
import type { IdpOptions } from './options.js';
import { flagName, idpSettings, type IdpSettings } from './settings.js';
import { startupBanner } from './startup-banner.js';
import { readUsersFile } from './users-file.js';

export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  env: Record<string, string | undefined>;
  /** Aborting stops the server; run() then resolves. */
  signal?: AbortSignal;
  /** Called once the IdP serves (tests use it to find the URL). */
  onListening?: (idp: RunningIdp) => void;
}

const entries = Object.entries(idpSettings) as [keyof typeof idpSettings, Setting][];

function helpText(): string {
  const lines = entries.map(([key, s]) => {
    const flag = `--${flagName(key)}${s.type === 'boolean' ? '' : ` <${s.type === 'list' ? 'value' : s.type === 'integer' ? 'n' : 'value'}>`}`;
    const def =
      s.defaultDoc ??
      (s.default === undefined || typeof s.default === 'function' ? '' : ` (default: ${String(s.default)})`);
    const shownDefault = s.defaultDoc ? ` (default: ${s.defaultDoc.replace(/`/g, '')})` : def;
    return `  ${flag}\n      ${s.doc}${shownDefault}  [${s.env}]`;
  });
  return `Usage: idp [options]

A stub OpenID Connect provider for development and CI (http://127.0.0.1:8484 by default).
Every option can also be set as the environment variable in brackets; a flag wins over the environment.

Options:
${lines.join('\n')}
  -h, --help
      Show this help.
`;
}

function parseFlags(argv: string[]): { values: Record<string, string | boolean | string[] | undefined> } {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const [key, s] of entries) {
    options[flagName(key)] =
      s.type === 'boolean' ? { type: 'boolean' } : { type: 'string', multiple: s.type === 'list' };
  }
  const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  if (positionals.length) throw new Error(`unexpected argument "${positionals[0]}"`);
  return { values: values as Record<string, string | boolean | string[] | undefined> };
}

/** Flags become environment entries laid over `env`, so one loader validates both and the flag wins. */
function settingsFrom(values: Record<string, unknown>, env: Record<string, string | undefined>): IdpSettings {
  const merged = { ...env };
  const fromFlag = new Map<string, string>();
  for (const [key, s] of entries) {
    const value = values[flagName(key)];
    if (value === undefined) continue;
    merged[s.env] = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : JSON.stringify(value);
    fromFlag.set(s.env, `--${flagName(key)}`);
  }
  try {
    return loadConfig(idpSettings, merged);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const problems = error.problems.map((p) => {
      const env = p.split(' ')[0];
      return fromFlag.has(env) ? `${fromFlag.get(env)}${p.slice(env.length)}` : p;
    });
    throw new Error(problems.join('; '));
  }
}

export function optionsFrom(settings: IdpSettings): IdpOptions {
  // --users takes a file, or the users document itself when it is inline JSON (handy in environment-only setups).
  const inline = settings.users && /^\s*[[{]/.test(settings.users);
  const users: IdpUser[] | undefined = settings.users
    ? inline
      ? parseUsers(settings.users, '--users')
      : readUsersFile(settings.users)
    : undefined;
  const defaultUser = settings.defaultUser ? parseDefaultUser(settings.defaultUser) : undefined;
  return {
    port: settings.port,
    host: settings.host,
    issuer: settings.issuer,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    redirectUris: settings.redirectUri,
    postLogoutRedirectUri: settings.postLogoutRedirectUri,
    publicClient: settings.publicClient,
    users,
    defaultUser,
    skipPrompt: settings.skipPrompt,
    accessTokenFormat: settings.accessTokenFormat as 'opaque' | 'jwt',
    defaultAudience: settings.defaultAudience,
    idTokenIncludesUserinfoClaims: settings.idTokenIncludesUserinfoClaims,
    enableRegistration: settings.enableRegistration,
    registrationInitialAccessToken: settings.registrationInitialAccessToken,
    jwksFile: settings.jwksFile,
    saveJwks: settings.saveJwks,
    databaseUrl: settings.databaseUrl,
    trustProxy: settings.trustProxy,
    scopes: settings.scopes,
    requireDatabaseAtStart: settings.requireDatabaseAtStart,
    enableTestingApi: settings.enableTestingApi,
    allowTestingApiOnPublicHost: settings.allowTestingApiOnPublicHost,
    tenants: settings.tenants,
  };
}

function describeStartError(error: unknown, settings: IdpSettings): string {
  const e = error as NodeJS.ErrnoException & { name?: string };
  if (e.code === 'EADDRINUSE') return `cannot listen on ${settings.host}:${settings.port}: address already in use`;
  if (e.code === 'EACCES') return `cannot listen on ${settings.host}:${settings.port}: permission denied`;
  if (e.name?.startsWith('Mongo')) return `cannot use the database: ${e.message.split('\n')[0]}`;
  return (e.message ?? String(error)).split('\n')[0];
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  let settings: IdpSettings;
  let options: IdpOptions;
  try {
    const { values } = parseFlags(argv);
    if (values.help) {
      io.stdout.write(helpText());
      return 0;
    }
    settings = settingsFrom(values, io.env);
    options = optionsFrom(settings);
  } catch (error) {
    const message = (error as Error).message.replace(/^Unknown option '(--?[^']+)'.*$/s, 'unknown option $1');
    io.stderr.write(`idp: ${message.split('\n')[0]} (see idp --help)\n`);
    return 1;
  }
  if (io.signal?.aborted) return 0;

  const logger = createLogger({ level: settings.logLevel, name: 'idp' }, io.stderr);
  let idp: RunningIdp;
  try {
    idp = await createIdp({ ...options, logger });
  } catch (error) {
    io.stderr.write(`idp: ${describeStartError(error, settings)}\n`);
    return 1;
  }
  io.stdout.write(
    startupBanner(idp, {
      storage: settings.databaseUrl ? 'MongoDB' : 'memory (lost on exit)',
      users: (options.users ?? [options.defaultUser?.sub ?? 'alice']).map((u) => (typeof u === 'string' ? u : u.sub)),
      skipPrompt: settings.skipPrompt,
      testingApi: settings.enableTestingApi,
    }),
  );
  io.onListening?.(idp);
  await new Promise<void>((resolve) => {
    if (!io.signal) return; // serves until the process ends
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await idp.close();
  return 0;
}
