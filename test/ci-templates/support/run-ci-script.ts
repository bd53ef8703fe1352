/**
 * Runs a CI entry script (action.yml's run step, the GitLab template's script) the way the CI system would: bash with
 * the options it uses, a working directory, and only the environment that system sets (no npm_* or mocha variables of
 * this test process), asynchronously so a target served by the test keeps answering.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** What every CI machine has: the tools on PATH, and HOME (npx's cache lives there). */
export function machineEnvironment(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), LANG: 'C.UTF-8' };
}

export async function runCiScript(
  script: string,
  options: { shell: string[]; cwd: string; env: Record<string, string> },
): Promise<ScriptRun> {
  const dir = await mkdtemp(join(tmpdir(), 'ci-script-'));
  try {
    const file = join(dir, 'step.sh');
    await writeFile(file, script);
    const [command, ...args] = options.shell;
    const child = spawn(command, [...args, file], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status) => resolve(status ?? 1));
    });
    return { code, stdout, stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
