/** A demo API's entry point run as `npm run demo:…` runs it (through tsx here), for the bin tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The path of a file under demo/. */
export function demoFile(path: string): string {
  return fileURLToPath(new URL(`../../../demo/${path}`, import.meta.url));
}

/**
 * Starts the entry point; `banner` resolves with what it printed once `until` appeared in it, and rejects with the
 * exit code and all it printed (its standard error last) if it exits first. The caller stops it (`stopDemos` after each test).
 */
export function startDemo(
  bin: string,
  args: string[],
  until: string,
): { child: ChildProcess; banner: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', demoFile(bin), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let errors = '';
  const banner = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(until)) resolve(out);
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('exit', (code) => {
      running.delete(child);
      reject(new Error(`exited ${code}: ${out}${errors}`));
    });
  });
  return { child, banner };
}

const running = new Set<ChildProcess>();

/** Stops every demo a test started and left running. */
export function stopDemos(): void {
  for (const child of running) child.kill('SIGTERM');
  running.clear();
}
