/**
 * Starts `npm start`'s stack as a real child process (from source, through tsx) on free ports and reads the
 * URLs it prints; `stop()` sends SIGINT like Ctrl-C and resolves with the exit code and everything printed.
 * Its state file (what `npm run token` reads) is in a temp dir of its own, never a developer's running stack's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../../lib/project-root.js';

export interface StackProcess {
  idp: string;
  service: string;
  audience: string;
  /** The reviewer/admin listener (its `/internal/v1` API). */
  internal: string;
  internalAudience: string;
  /** GATEHOUSE_STACK_FILE of this stack: pass it to `npm run token` / `npm run scan:self`. */
  stackFile: string;
  output(): string;
  stop(): Promise<{ code: number | null; output: string }>;
}

export async function startStackProcess(env: Record<string, string | undefined> = {}): Promise<StackProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-stack-test-'));
  const stackFile = join(dir, 'stack.json');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fromRoot('stack', 'bin.ts')], {
    cwd: fromRoot(),
    env: { ...process.env, IDP_PORT: '0', PORT: '0', LOG_LEVEL: 'warn', GATEHOUSE_STACK_FILE: stackFile, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve(code);
    }),
  );

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start within 60 s:\n${output}`)), 60_000);
    const poll = setInterval(() => {
      if (output.includes('Press Ctrl-C')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the stack exited with ${code} before it was ready:\n${output}`));
    });
  });
  const find = (label: string) => {
    const match = new RegExp(`${label}\\s+(\\S+)`).exec(output);
    if (!match) throw new Error(`"${label}" not printed:\n${output}`);
    return match[1];
  };
  return {
    idp: find('identity provider'),
    service: find('registration service').replace(/\/api\/v1$/, ''),
    audience: find('token audience'),
    internal: find('reviewer surface').replace(/\/internal\/v1$/, ''),
    internalAudience: find('internal audience'),
    stackFile,
    output: () => output,
    async stop() {
      child.kill('SIGINT');
      const code = await exited;
      return { code, output };
    },
  };
}

/** The printed tour: the indented lines between "Quick tour" and "Then attack", de-indented. */
export function printedTour(output: string): string {
  const match = /^Quick tour.*\n\n([\s\S]*?)\n\nThen attack/m.exec(output);
  if (!match) throw new Error(`npm start printed no quick tour:\n${output}`);
  return match[1]
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n');
}
