#!/usr/bin/env node
/** Process entry of `idp`: wires argv, the environment, stdio and SIGINT/SIGTERM into `run`. */
import { run } from './cli.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
