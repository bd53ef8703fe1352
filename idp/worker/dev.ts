/**
 * `npm run worker:dev`: builds the bundle (cached) and serves it on workerd with a local D1 database kept in
 * .tmp/idp-worker-d1, variables from wrangler.jsonc overlaid with any `IDP_*` set in the environment.
 * Port: WORKER_PORT, default 8787 (wrangler dev's). Serves until `signal` aborts.
 */
import { fromRoot } from '../../lib/project-root.js';
import type { SettingDeclarations } from '../../lib/settings/declaration.js';
import { idpSettings } from '../settings.js';
import { buildWorkerBundle } from './build.js';
import { startLocalWorker } from './local-worker.js';
import { readWranglerConfig } from './wrangler-config.js';

export interface DevIo {
  env: Record<string, string | undefined>;
  stdout: { write(chunk: string): unknown };
  stderr: { write(chunk: string): unknown };
  signal: AbortSignal;
}

export async function runDev(io: DevIo): Promise<number> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(readWranglerConfig().vars ?? {})) vars[name] = String(value);
  for (const { env } of Object.values(idpSettings.settings as SettingDeclarations)) {
    const value = env && io.env[env];
    if (value) vars[env] = value;
  }
  const port = Number(io.env.WORKER_PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr.write(`worker:dev: WORKER_PORT must be a port number (got "${io.env.WORKER_PORT}")\n`);
    return 1;
  }
  const bundle = await buildWorkerBundle();
  const worker = await startLocalWorker({
    scriptPath: bundle.path,
    vars,
    d1Dir: fromRoot('.tmp', 'idp-worker-d1'),
    port,
    onLog: (line) => io.stderr.write(`${line}\n`),
  });
  io.stdout.write(
    `idp worker on workerd: ${worker.url} (bundle ${(bundle.bytes / 1e6).toFixed(1)} MB${bundle.rebuilt ? ', rebuilt' : ''})\n` +
      `  discovery  ${vars.IDP_ISSUER ?? worker.url}/.well-known/openid-configuration\n` +
      `  readiness  ${worker.url}/readyz\n` +
      `  local D1   .tmp/idp-worker-d1 (delete it to start over)\n`,
  );
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await worker.close();
  return 0;
}
