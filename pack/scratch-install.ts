/**
 * The package as a user gets it: `npm pack` of this checkout (dist/ as built) into a temp dir, then a scratch
 * project there that installs the tarball from the registry the way `npm install gatehouse` would (install scripts
 * held back, npm's cache used first). Used by the size report and the consumer check.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fromRoot } from '../lib/project-root.js';

const exec = promisify(execFile);

export interface ScratchInstall {
  /** The scratch project (its node_modules holds the installed package). */
  dir: string;
  tarball: string;
  /** The tarball's size in bytes and its file count, as `npm pack` reports them. */
  packedBytes: number;
  files: number;
  remove(): Promise<void>;
}

/** Why an install failed because the registry could not be reached, or undefined for any other failure. */
function offlineReason(output: string): string | undefined {
  const code = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH)\b/.exec(output)?.[1];
  return code ? `the npm registry cannot be reached (${code})` : undefined;
}

/** Undefined when npm's registry answers its ping within 5 s, else why not (no network, no DNS, a proxy…). */
export async function registryUnreachable(): Promise<string | undefined> {
  const { stdout } = await exec('npm', ['config', 'get', 'registry']);
  const registry = stdout.trim().replace(/\/?$/, '/');
  try {
    await fetch(`${registry}-/ping`, { signal: AbortSignal.timeout(5000) });
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return `the npm registry ${registry} cannot be reached (${cause})`;
  }
}

/** Packs dist/ (built beforehand: `npm run build`) and installs the tarball into a new scratch project. */
export async function scratchInstall(): Promise<ScratchInstall> {
  const dir = await mkdtemp(join(tmpdir(), 'gatehouse-consumer-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    // --ignore-scripts: prepare would rebuild dist/; the caller packs what was built.
    const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: fromRoot(),
      maxBuffer: 64 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout) as { filename: string; size: number; entryCount: number }[];
    const tarball = join(dir, packed.filename);
    await writeFile(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'gatehouse-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    try {
      await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev', tarball], {
        cwd: dir,
        env: { ...process.env, npm_config_update_notifier: 'false' },
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (error) {
      const output = `${(error as { stderr?: string }).stderr ?? ''}${(error as Error).message}`;
      const offline = offlineReason(output);
      // A plain error that says why, npm's own output kept as the cause.
      throw offline ? new Error(offline, { cause: error }) : error;
    }
    return { dir, tarball, packedBytes: packed.size, files: packed.entryCount, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** Bytes on disk under `dir` (`du -sk`, else the sum of file sizes). */
export async function diskUsage(dir: string): Promise<number> {
  try {
    const { stdout } = await exec('du', ['-sk', dir]);
    return Number(stdout.split(/\s/)[0]) * 1024;
  } catch {
    let total = 0;
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
    }
    return total;
  }
}
