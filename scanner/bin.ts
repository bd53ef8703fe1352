#!/usr/bin/env node
/** The `scanner` executable: wires the process (argv, streams, environment, exit code) to `run`. */
import { run } from './cli.js';

const code = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  isTTY: Boolean(process.stderr.isTTY),
});
process.exitCode = code;
