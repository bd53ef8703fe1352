/**
 * Bundles the worker (idp/worker/entry.ts) with esbuild into one ES module for workerd, cached: the bundle is
 * rebuilt only when one of its inputs (or the build settings) changed since the last build. Our shims, all here:
 * - `require` for the CommonJS dependencies (Koa, Express…) that require Node built-ins, from 'node:module';
 * - the MongoDB store and the JWKS-file reader are replaced by modules that explain they are not on the worker
 *   (the worker refuses those settings before they could be reached), which keeps the driver out of the bundle;
 * - the runtime-warning filter gets a version without a global-scope timer (workerd refuses timers there);
 * - `util.debuglog` (Koa's tracing) is silenced: workerd's version prints its traces to the console unasked.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { build, version as esbuildVersion, type Plugin } from 'esbuild';
import { fromRoot } from '../../lib/project-root.js';

export interface WorkerBundle {
  /** Absolute path of the bundled module. */
  path: string;
  bytes: number;
  /** false when the cached bundle was still current. */
  rebuilt: boolean;
}

const STUBS: Record<string, string> = {
  'adapters/mongo.js': `import { idpError } from './errors.ts';
export function openMongoStore() { throw idpError('unavailable_on_worker', 'MongoDB is not available on the worker (state lives in D1)'); }`,
  'jwks-file.js': `import { idpError } from './errors.ts';
export async function loadOrCreateJwksFile() { throw idpError('unavailable_on_worker', '--jwks-file is not available on the worker (keys live in D1)'); }`,
  // The Node version removes its filter with a timer, which workerd forbids at global scope; on the worker the
  // filter stays, and drops only oidc-provider's "Unsupported runtime" line (workerd is expected here).
  'quiet-runtime-warning.js': `const original = console.warn;
console.warn = (...args) => { if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return; original(...args); };`,
};

const notOnWorker: Plugin = {
  name: 'not-on-worker',
  setup(b) {
    const filter = new RegExp(
      `/(${Object.keys(STUBS)
        .map((s) => s.replace(/[./]/g, '\\$&'))
        .join('|')})$`,
    );
    b.onResolve({ filter }, (args) => ({
      path: Object.keys(STUBS).find((s) => args.path.endsWith(s))!,
      namespace: 'not-on-worker',
    }));
    // Stubs resolve their imports from idp/ (the error table).
    b.onLoad({ filter: /.*/, namespace: 'not-on-worker' }, (args) => ({
      contents: STUBS[args.path],
      loader: 'js',
      resolveDir: fromRoot('idp'),
    }));
  },
};

// CommonJS modules in the bundle call require('events'), require('node:http') …; esbuild leaves those to a
// `require` in scope, which ES modules on workerd do not have.
// Koa traces through util.debuglog, which workerd's node:util prints to the console unasked.
const BANNER = [
  "import { createRequire as __idpCreateRequire } from 'node:module';",
  "const require = __idpCreateRequire('/worker.js');",
  "require('node:util').debuglog = () => Object.assign(() => {}, { enabled: false });",
].join(' ');

const SETTINGS = {
  esbuildVersion,
  banner: BANNER,
  stubs: STUBS,
  format: 'esm',
  target: 'es2023',
  conditions: ['workerd', 'worker'],
};

function fingerprint(inputs: string[]): string {
  const hash = createHash('sha256').update(JSON.stringify(SETTINGS));
  for (const input of inputs) {
    try {
      const s = statSync(fromRoot(input));
      hash.update(`${input}:${s.size}:${s.mtimeMs}\n`);
    } catch {
      hash.update(`${input}:missing\n`);
    }
  }
  return hash.digest('hex');
}

/** Builds idp/worker/dist/worker.js unless the cached one is current (`force` rebuilds anyway). */
export async function buildWorkerBundle(options: { outDir?: string; force?: boolean } = {}): Promise<WorkerBundle> {
  const outDir = options.outDir ?? fromRoot('idp', 'worker', 'dist');
  const path = `${outDir}/worker.js`;
  const manifestPath = `${outDir}/inputs.json`;
  if (!options.force) {
    try {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { inputs: string[]; fingerprint: string };
      if (manifest.fingerprint === fingerprint(manifest.inputs))
        return { path, bytes: statSync(path).size, rebuilt: false };
    } catch {
      // no usable cache: build
    }
  }
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    absWorkingDir: fromRoot(),
    entryPoints: ['idp/worker/entry.ts'],
    outfile: path,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2023',
    conditions: ['workerd', 'worker'],
    external: ['cloudflare:*'],
    banner: { js: BANNER },
    plugins: [notOnWorker],
    metafile: true,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.includes(':'));
  writeFileSync(manifestPath, JSON.stringify({ inputs, fingerprint: fingerprint(inputs) }));
  return { path, bytes: statSync(path).size, rebuilt: true };
}
