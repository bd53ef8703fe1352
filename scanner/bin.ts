#!/usr/bin/env node
/**
 * The `scanner` executable: wires the process (argv, streams, environment, exit code) to `run`. It runs the bundled
 * command line (dist/scanner-bundle/, scanner/bundle/build.ts) when the build wrote one, else the modules beside it.
 */
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node ≥ 22.1 keeps the compiled bundle in its on-disk cache, so later runs skip compiling it; Node 20 has no cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const bundled = new URL('../scanner-bundle/cli.js', import.meta.url);
const { run } = (await import(existsSync(bundled) ? bundled.href : './cli.js')) as typeof import('./cli.js');

// First Ctrl-C: stop the scan and still write the partial report; a second one exits at once.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  process.stderr.write('\nscanner: interrupted, finishing the report (Ctrl-C again to quit)\n');
  controller.abort(new Error('scan interrupted'));
});

const code = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  isTTY: Boolean(process.stderr.isTTY),
  signal: controller.signal,
});
process.exitCode = code;
