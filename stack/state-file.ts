/**
 * Where a running `npm start` says which URLs it got, so `npm run token` and `npm run scan:self` follow the ports
 * the stack actually uses: a small JSON file in the temp dir (GATEHOUSE_STACK_FILE overrides), removed on stop.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StackUrls } from './stack-urls.js';

export function stackFile(env: Record<string, string | undefined> = process.env): string {
  return env.GATEHOUSE_STACK_FILE ?? join(tmpdir(), `gatehouse-stack-${process.getuid?.() ?? 'user'}.json`);
}

export function writeStackFile(file: string, urls: StackUrls): void {
  writeFileSync(file, `${JSON.stringify({ ...urls, pid: process.pid })}\n`);
}

/** Removes the file only when it is still this process's (another stack may have started since). */
export function removeStackFile(file: string): void {
  if (readStackFile(file, { alive: false })?.pid === process.pid) rmSync(file, { force: true });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URLs of the running stack, or undefined when none runs (no file, or its process is gone). */
export function readStackFile(
  file: string,
  options: { alive?: boolean } = {},
): (StackUrls & { pid: number }) | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as StackUrls & { pid: number };
    if (options.alive !== false && !alive(state.pid)) return undefined;
    return state;
  } catch {
    return undefined;
  }
}
