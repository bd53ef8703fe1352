/**
 * The package seen from outside (issue #28): packed, installed in a scratch project, and there imported from
 * JavaScript and from strict TypeScript (`tsc --noEmit` clean with only what `npm install gatehouse` brought), its
 * bins run with npx, and the IdP started in-process by a test that gets a token. The consumer's files are in
 * pack/consumer/. `npm run test:package` runs it; test/pack/consumer-check.test.ts too.
 */
import { execFile } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { fromRoot } from '../lib/project-root.js';
import { scratchInstall } from './scratch-install.js';

const exec = promisify(execFile);

export interface StepResult {
  step: string;
  ok: boolean;
  /** What the step printed (stdout and stderr), trimmed. */
  output: string;
}

/** The TypeScript compiler of this checkout, run over the consumer's own tsconfig (its node_modules, its @types). */
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

async function step(name: string, dir: string, command: string, args: string[]): Promise<StepResult> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: dir, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return { step: name, ok: true, output: `${stdout}${stderr}`.trim() };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return { step: name, ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim() || failed.message };
  }
}

/**
 * tsc with `skipLibCheck: false`, so Gatehouse's own declarations are checked too: an error in them or in the
 * consumer's file fails the step. Errors inside other packages' declarations (third-party typings that disagree with
 * each other, e.g. @types/koa and content-disposition's own types) are reported as notes: no change of ours fixes them.
 */
async function typecheck(dir: string): Promise<StepResult> {
  const result = await step('tsc --noEmit, strict, against each entry point', dir, process.execPath, [
    tsc,
    '-p',
    'tsconfig.json',
  ]);
  if (result.ok) return result;
  const errors = result.output.split('\n').filter((line) => /\(\d+,\d+\): error TS\d+/.test(line));
  const ours = errors.filter((line) => !line.startsWith('node_modules/') || line.startsWith('node_modules/gatehouse/'));
  const theirs = errors.filter((line) => !ours.includes(line));
  if (ours.length > 0 || errors.length === 0) return result;
  return { ...result, ok: true, output: `notes (third-party typings):\n${theirs.join('\n')}` };
}

/**
 * Runs every step in a fresh scratch project (removed afterwards); throws when npm cannot install, with the reason
 * when the registry cannot be reached.
 */
export async function consumerCheck(): Promise<StepResult[]> {
  const install = await scratchInstall();
  try {
    const dir = install.dir;
    await cp(fromRoot('pack', 'consumer'), dir, { recursive: true });
    return [
      await step('import each entry point from JavaScript', dir, process.execPath, ['imports.mjs']),
      await typecheck(dir),
      await step('npx idp --help', dir, 'npx', ['--no-install', 'idp', '--help']),
      await step('npx scanner --version', dir, 'npx', ['--no-install', 'scanner', '--version']),
      await step('a test starts the IdP in-process and gets a token', dir, process.execPath, [
        '--test',
        'idp-token.test.mjs',
      ]),
    ];
  } finally {
    await install.remove();
  }
}
