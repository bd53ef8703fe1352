/**
 * Runs the bundled worker locally on workerd (the `workerd` binary from npm, driven by miniflare) with a local D1
 * database, under wrangler.jsonc's compatibility date, flags and binding: what `npm run worker:dev` serves and what the tests start. Two runners given the same `d1Dir` are
 * two separate workerd processes sharing one database, like two isolates of a deployed worker.
 */
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { Miniflare, type MiniflareOptions } from 'miniflare';
import { readWranglerConfig } from './wrangler-config.js';

export interface LocalWorkerOptions {
  /** The bundled module (buildWorkerBundle().path). */
  scriptPath: string;
  /** Worker variables, e.g. { IDP_SKIP_PROMPT: 'true' }. */
  vars?: Record<string, string>;
  /** Directory holding the local D1 database (shared between runners); undefined keeps it in memory. */
  d1Dir?: string;
  /** false leaves the D1 binding out (readiness then reports 503). */
  withD1?: boolean;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Receives the worker's console output (its JSON log lines); dropped when absent. */
  onLog?: (line: string) => void;
}

export interface LocalWorker {
  /** e.g. http://127.0.0.1:8787 */
  url: string;
  close(): Promise<void>;
}

export async function startLocalWorker(options: LocalWorkerOptions): Promise<LocalWorker> {
  const withD1 = options.withD1 ?? true;
  // The runtime settings and the D1 binding name of a deployment: wrangler.jsonc is their one source.
  const wrangler = readWranglerConfig();
  const binding = wrangler.d1_databases[0].binding;
  const config: MiniflareOptions = {
    name: 'gatehouse-idp',
    modules: true,
    scriptPath: options.scriptPath,
    // Module names are relative to this root; the bundle may live outside the project (tests keep theirs in tmp).
    modulesRoot: dirname(options.scriptPath),
    compatibilityDate: wrangler.compatibility_date,
    compatibilityFlags: wrangler.compatibility_flags,
    bindings: options.vars ?? {},
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    ...(withD1
      ? { d1Databases: { [binding]: wrangler.d1_databases[0].database_name }, d1Persist: options.d1Dir ?? false }
      : {}),
    handleRuntimeStdio: (out: Readable, err: Readable) => {
      for (const stream of [out, err]) {
        if (!options.onLog) stream.resume();
        else
          stream.on('data', (chunk: Buffer) =>
            chunk
              .toString('utf8')
              .split('\n')
              .filter(Boolean)
              .forEach((line) => options.onLog!(line)),
          );
      }
    },
  };
  const mf = new Miniflare(config);
  const url = await mf.ready;
  return {
    url: url.origin,
    close: () => mf.dispose(),
  };
}
