#!/usr/bin/env node
/** The `registration-service` command: runs `main` with the real process; SIGINT/SIGTERM stop it gracefully. */
import { main } from './main.js';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

process.exitCode = await main(
  process.argv.slice(2),
  process.env,
  { stdout: process.stdout, stderr: process.stderr },
  { signal: stop.signal },
);
