/**
 * Finds and validates check modules: built-ins in `checks/` and every `--checks-dir`. Everything is validated before
 * anything runs (meta schema, id == file name, duplicates, missing dependencies, cycles, options declared twice with
 * different types or flags); a bad check is one clear line.
 */
import { statSync } from 'node:fs';
import { basename, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { glob } from 'tinyglobby';
import { toFieldErrors } from '../lib/schema-errors.js';
import type { CheckDefinition } from './api.js';
import { bundledChecks } from './built-in-checks.js';
import { scannerError } from './errors.js';
import { checkMetaValidator } from './check-meta-validator.js';
import { collectOptions } from './check-options.js';
import { assertAcyclic, assertDependenciesExist, compareIds } from './graph.js';
import type { ScannedCheck } from './scan-result.js';

/** A check's definition as loaded: what a check may leave out, derived (`maxCvss`, from its issues). */
type LoadedDefinition = CheckDefinition & { readonly maxCvss: number };

export interface LoadedCheck extends ScannedCheck {
  definition: LoadedDefinition;
  /** Absolute path of the module. */
  file: string;
}

export interface LoadOptions {
  /** Custom check directories, in the order given (`--checks-dir`). */
  dirs?: string[];
  /** Load `checks/` too (default true). */
  includeBuiltIn?: boolean;
  /** Base for relative `dirs` (default the working directory). */
  cwd?: string;
}

const FUNCTION_KEYS = new Set(['run', 'appliesTo']);

const runningFromSource = fileURLToPath(import.meta.url).endsWith('.ts');
/** `checks/` next to `scanner/`: the sources under tsx, `dist/checks/` when built. */
const builtInChecksDir = fileURLToPath(new URL('../checks/', import.meta.url));

function canImportTypeScript(): boolean {
  const features = process.features as { typescript?: unknown };
  return runningFromSource || Boolean(features.typescript);
}

function patternsFor(builtIn: boolean): string[] {
  if (builtIn) return runningFromSource ? ['*.ts'] : ['*.js'];
  // Custom .ts checks are always looked for: silently ignoring a user's check would be worse than any error.
  return ['*.js', '*.mjs', '*.ts'];
}

let typeScriptLoader: Promise<void> | undefined;

/**
 * Lets the built scanner import a custom `.ts` check. tsx's loader is preferred whenever it is installed, even on a
 * Node that strips types itself: checks import their siblings as `./x.js` (TypeScript's NodeNext style), which only
 * tsx maps to `./x.ts`. Without tsx, Node's own type stripping is used where it exists; otherwise one clear line.
 */
function ensureTypeScriptLoader(shown: string): Promise<void> {
  if (runningFromSource) return Promise.resolve();
  typeScriptLoader ??= import('tsx/esm/api').then((api) => {
    api.register();
  });
  return typeScriptLoader.catch((error: unknown) => {
    if (canImportTypeScript()) return;
    throw scannerError(
      'invalid_check',
      `${shown}: TypeScript checks need Node ≥ 22.18 or tsx installed (npm install --save-dev tsx); or compile the check to .js`,
      { cause: error },
    );
  });
}

const IGNORED = ['*.d.ts', '*.test.ts', '*.test.js', '*.map'];

async function filesIn(dir: string, builtIn: boolean): Promise<string[]> {
  const files = await glob(patternsFor(builtIn), { cwd: dir, absolute: true, onlyFiles: true, ignore: IGNORED });
  return files.sort(compareIds);
}

function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function assertReadableDir(dir: string): void {
  let ok = false;
  try {
    ok = statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw scannerError('unreadable_checks_dir', `${dir}: checks directory does not exist or is not a directory`);
}

/** The highest score a check can report: its highest issue's (a probe, without issues, reports none: 0). */
function highestScore(check: CheckDefinition): number {
  return Math.max(0, ...check.issues.map((i) => i.cvss.score));
}

/** Validates one module's default export; returns the problems found (empty when valid). */
function problemsOf(exported: unknown, file: string): string[] {
  if (typeof exported !== 'object' || exported === null) return ['has no default export made with defineCheck()'];
  const definition = exported as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof definition.run !== 'function') problems.push('run must be a function');
  if (definition.appliesTo !== undefined && typeof definition.appliesTo !== 'function')
    problems.push('appliesTo must be a function');
  const shared = definition.sharedVerdict as { key?: unknown } | undefined;
  if (typeof shared === 'object' && shared !== null && typeof shared.key !== 'function')
    problems.push('sharedVerdict.key must be a function');
  const meta = Object.fromEntries(Object.entries(definition).filter(([key]) => !FUNCTION_KEYS.has(key)));
  const validate = checkMetaValidator();
  if (!validate(meta)) {
    for (const e of toFieldErrors(validate.errors)) problems.push(`${e.path || 'meta'} ${e.message}`);
    return problems;
  }
  const check = definition as unknown as CheckDefinition;
  const expectedId = basename(file, extname(file));
  if (check.id !== expectedId) problems.push(`id "${check.id}" must equal the file name "${expectedId}"`);
  const issueIds = new Set<string>();
  for (const issue of check.issues) {
    if (issueIds.has(issue.id)) problems.push(`issue "${issue.id}" is declared twice`);
    issueIds.add(issue.id);
  }
  // Once per scan runs on the scan's first operation, which a GraphQL-only check would never run on.
  if (check.oncePerScan && check.graphqlOperations)
    problems.push(
      'oncePerScan and graphqlOperations exclude each other (graphqlOperations: endpoint runs once per endpoint)',
    );
  // The chain re-runs a check per refused operation as a raised identity that exclusive checks would change again.
  if (check.rerunsAsRaised && (check.oncePerScan || check.exclusive))
    problems.push(
      `rerunsAsRaised excludes ${check.oncePerScan ? 'oncePerScan' : 'exclusive'} (the chain re-runs a check per operation, beside the others)`,
    );
  // A stated ceiling that differs from the issues' is a mistake either way: lower, --only-scans-above-threshold
  // would drop a check that can report above it; higher, it would keep one that never can.
  const highest = highestScore(check);
  if (check.maxCvss !== undefined && check.maxCvss !== highest)
    problems.push(`maxCvss ${check.maxCvss} must equal the highest issue score (${highest}), or be left out`);
  if ((check.dependsOn ?? []).includes(check.id)) problems.push('depends on itself');
  return problems;
}

async function importCheck(file: string, shown: string): Promise<unknown> {
  if (file.endsWith('.ts')) await ensureTypeScriptLoader(shown);
  try {
    const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    return mod.default;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw scannerError('invalid_check', `${shown}: cannot be imported: ${message}`, { cause: error });
  }
}

/** The check modules of a folder, imported in file-name order (none when the built-in folder is absent). */
async function modulesIn(dir: string, builtIn: boolean, cwd: string): Promise<{ file: string; exported: unknown }[]> {
  if (builtIn) {
    try {
      if (!statSync(dir).isDirectory()) return [];
    } catch {
      return [];
    }
  }
  const modules: { file: string; exported: unknown }[] = [];
  for (const file of await filesIn(dir, builtIn))
    modules.push({ file, exported: await importCheck(file, display(file, cwd)) });
  return modules;
}

/** Loads built-in and custom checks, validated as one set. Order: built-ins first, then each dir, files by name. */
/**
 * An exclusive check runs after every other check of the scan (scanner/engine/run-scan.ts), so a check that waits
 * for one would wait for ever: refused at load time, naming both.
 */
function assertNoDependencyOnExclusive(nodes: CheckDefinition[], describe: (id: string) => string): void {
  const exclusive = new Set(nodes.filter((n) => n.exclusive).map((n) => n.id));
  for (const node of [...nodes].sort((a, b) => compareIds(a.id, b.id)))
    for (const dep of node.dependsOn ?? [])
      if (exclusive.has(dep))
        throw scannerError(
          'invalid_check',
          `${describe(node.id)}: depends on "${dep}", an exclusive check (it runs after every other check)`,
        );
}

export async function loadChecks(options: LoadOptions = {}): Promise<LoadedCheck[]> {
  const cwd = options.cwd ?? process.cwd();
  const sources: { dir: string; origin: LoadedCheck['origin'] }[] = [];
  if (options.includeBuiltIn ?? true) sources.push({ dir: builtInChecksDir, origin: 'built-in' });
  for (const dir of options.dirs ?? []) {
    const absolute = resolve(cwd, dir);
    assertReadableDir(absolute);
    sources.push({ dir: absolute, origin: 'custom' });
  }
  const loaded: LoadedCheck[] = [];
  const byId = new Map<string, LoadedCheck>();
  for (const { dir, origin } of sources) {
    const builtIn = origin === 'built-in';
    // The bundled scanner carries its built-ins (scanner/built-in-checks.ts): nothing to find or import.
    const modules =
      builtIn && bundledChecks
        ? bundledChecks.map(({ name, exported }) => ({ file: join(dir, `${name}.js`), exported }))
        : await modulesIn(dir, builtIn, cwd);
    for (const { file, exported } of modules) {
      const shown = display(file, cwd);
      const problems = problemsOf(exported, file);
      if (problems.length > 0) {
        const more =
          problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
        throw scannerError('invalid_check', `${shown}: ${problems[0]}${more}`, {
          fields: problems.map((message) => ({ path: shown, message })),
        });
      }
      const definition = exported as CheckDefinition;
      const check: LoadedCheck = { definition: { ...definition, maxCvss: highestScore(definition) }, file, origin };
      const clash = byId.get(check.definition.id);
      if (clash) {
        throw scannerError(
          'duplicate_check',
          `${shown}: check id "${check.definition.id}" is already defined by ${display(clash.file, cwd)} (${clash.origin})`,
        );
      }
      byId.set(check.definition.id, check);
      loaded.push(check);
    }
  }
  const describe = (id: string): string => {
    const check = byId.get(id);
    return check ? display(check.file, cwd) : id;
  };
  const nodes = loaded.map((c) => c.definition);
  assertDependenciesExist(nodes, describe);
  assertNoDependencyOnExclusive(nodes, describe);
  assertAcyclic(nodes, describe);
  collectOptions(loaded.map((c) => ({ definition: c.definition, shown: display(c.file, cwd) })));
  return loaded;
}
