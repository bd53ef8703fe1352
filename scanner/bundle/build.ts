/**
 * Bundles the scanner's command line with esbuild into dist/scanner-bundle/, so `scanner` starts by reading a few
 * files instead of resolving some 450 modules (issue #28: time to the first request of a scan within 200 ms):
 * - `cli.js`: scanner/cli.ts, its commands split into chunks imported when dispatched (`--version` loads only cli.js);
 * - the built-in checks compiled in: scanner/built-in-checks.ts is replaced by a module importing every `checks/*.ts`;
 * - the check-meta and report validators compiled ahead of time (precompiled-validators.ts), no Ajv compile at run time;
 * - `weak-secret-worker.js` beside the chunks, where checks/support/jwt/crack-hmac-secret.ts looks for its worker;
 * - dependencies bundled too; CommonJS ones get a `require` from node:module. tsx stays outside: the loader imports it
 *   only for custom TypeScript checks, when it is installed.
 * dist/scanner/bin.js runs this bundle when it exists, else the unbundled dist/scanner/cli.js.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { fromRoot } from '../../lib/project-root.js';
import { compiledValidator, PRECOMPILED, standInModule } from './precompiled-validators.js';

export interface ScannerBundle {
  /** The bundle's folder. */
  dir: string;
  /** Its files and their total size. */
  files: number;
  bytes: number;
  /** How many built-in checks were compiled in. */
  checks: number;
}

const BANNER =
  "import { createRequire as __scannerRequire } from 'node:module'; const require = __scannerRequire(import.meta.url);";

/** Check modules of checks/: what the unbundled loader finds there (scanner/loader.ts, built-in patterns). */
function builtInCheckFiles(): string[] {
  return readdirSync(fromRoot('checks'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts'))
    .sort();
}

/** Replaces scanner/built-in-checks.ts with a module that imports every built-in check. */
function builtInChecks(files: readonly string[]): Plugin {
  return {
    name: 'built-in-checks',
    setup(b) {
      b.onResolve({ filter: /\/built-in-checks\.js$/ }, () => ({ path: 'built-in-checks', namespace: 'checks' }));
      b.onLoad({ filter: /.*/, namespace: 'checks' }, () => ({
        contents: [
          ...files.map((file, i) => `import check${i} from './${file.replace(/\.ts$/, '.js')}';`),
          `export const bundledChecks = [${files
            .map((file, i) => `{ name: ${JSON.stringify(file.replace(/\.ts$/, ''))}, exported: check${i} }`)
            .join(', ')}];`,
        ].join('\n'),
        loader: 'ts',
        resolveDir: fromRoot('checks'),
      }));
    },
  };
}

/** Replaces each module of PRECOMPILED with its validator compiled now. */
function precompiledValidators(): Plugin {
  return {
    name: 'precompiled-validators',
    setup(b) {
      for (const { file, exported, schemaId } of PRECOMPILED) {
        const filter = new RegExp(`/${file.replace(/[.]/g, '\\.')}$`);
        b.onResolve({ filter }, () => ({ path: file, namespace: 'stand-in' }));
        b.onResolve({ filter: new RegExp(`^compiled:${file}$`) }, () => ({ path: file, namespace: 'compiled' }));
        b.onLoad({ filter: new RegExp(`^${file}$`), namespace: 'stand-in' }, () => ({
          contents: standInModule(exported, `compiled:${file}`),
          loader: 'js',
        }));
        b.onLoad({ filter: new RegExp(`^${file}$`), namespace: 'compiled' }, () => ({
          contents: compiledValidator(schemaId),
          loader: 'js',
          // The compiled code requires Ajv's runtime helpers and ajv-formats' formats from node_modules.
          resolveDir: fromRoot(),
        }));
      }
    },
  };
}

export async function buildScannerBundle(outDir = fromRoot('dist', 'scanner-bundle')): Promise<ScannerBundle> {
  const checks = builtInCheckFiles();
  rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: fromRoot(),
    entryPoints: {
      cli: 'scanner/cli.ts',
      'weak-secret-worker': 'checks/support/jwt/weak-secret-worker.ts',
    },
    outdir: outDir,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // ES module builds of dependencies (graphql's index.mjs) evaluate only what is imported; CommonJS ones whole.
    mainFields: ['module', 'main'],
    external: ['tsx', 'tsx/*'],
    banner: { js: BANNER },
    plugins: [builtInChecks(checks), precompiledValidators()],
    // Less to read and parse at every start; names are kept, so a --debug stack still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const files = readdirSync(outDir);
  const bytes = files.reduce((sum, file) => sum + statSync(join(outDir, file)).size, 0);
  return { dir: outDir, files: files.length, bytes, checks: checks.length };
}
