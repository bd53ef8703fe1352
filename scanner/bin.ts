#!/usr/bin/env node
/** The `scanner` executable: wires the process (argv, streams, environment, exit code) to `run`. */
import { run } from './cli.js';

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
