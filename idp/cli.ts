/**
 * The `idp` command: flags and `IDP_*` environment (flag beats environment), read against idp/settings.ts and
 * validated all at once; an invalid value exits 1 with one readable line. Serves until `io.signal` aborts, then
 * closes and returns 0.
 */
import { createLogger } from '../lib/logger.js';
import { readCommandLine } from '../lib/settings/command-line.js';
import { loadSettings } from '../lib/settings/load-settings.js';
import { renderHelp } from '../lib/settings/render-help.js';
import { createIdp, type RunningIdp } from './create-idp.js';
import { idpSettings, type IdpConfig } from './settings.js';
import { startupBanner } from './startup-banner.js';

export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  env: Record<string, string | undefined>;
  /** Aborting stops the server; run() then resolves. */
  signal?: AbortSignal;
  /** Called once the IdP serves (tests use it to find the URL). */
  onListening?: (idp: RunningIdp) => void;
}

function helpText(): string {
  return `Usage: idp [options]

A stub OpenID Connect provider for development and CI (http://127.0.0.1:8484 by default).
Every option can also be set as the environment variable in brackets; a flag wins over the environment.

${renderHelp(idpSettings.settings, { heading: 'Options:' })}
`;
}

function describeStartError(error: unknown, config: IdpConfig): string {
  const e = error as NodeJS.ErrnoException & { name?: string };
  if (e.code === 'EADDRINUSE') return `cannot listen on ${config.host}:${config.port}: address already in use`;
  if (e.code === 'EACCES') return `cannot listen on ${config.host}:${config.port}: permission denied`;
  if (e.name?.startsWith('Mongo')) return `cannot use the database: ${e.message.split('\n')[0]}`;
  return (e.message ?? String(error)).split('\n')[0];
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  let config: IdpConfig;
  try {
    const { flags, help } = readCommandLine(idpSettings.settings, argv);
    if (help) {
      io.stdout.write(helpText());
      return 0;
    }
    config = loadSettings(idpSettings, { flags, env: io.env });
  } catch (error) {
    io.stderr.write(`idp: ${(error as Error).message.split('\n')[0]} (see idp --help)\n`);
    return 1;
  }
  if (io.signal?.aborted) return 0;

  let idp: RunningIdp;
  try {
    idp = await createIdp({ ...config, logger: createLogger({ level: config.logLevel, name: 'idp' }, io.stderr) });
  } catch (error) {
    io.stderr.write(`idp: ${describeStartError(error, config)}\n`);
    return 1;
  }
  io.stdout.write(startupBanner(idp, config));
  io.onListening?.(idp);
  await new Promise<void>((resolve) => {
    if (!io.signal) return; // serves until the process ends
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await idp.close();
  return 0;
}
