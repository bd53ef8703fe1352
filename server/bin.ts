#!/usr/bin/env node
/**
 * The `registration-service` command: runs `main` with the real process; SIGINT/SIGTERM stop it gracefully. Once
 * `main` is done the process ends at once — work still pending then (a call to the authorization server of a
 * request cut at the end of SHUTDOWN_GRACE_MS) must not keep it alive — after the log lines are written.
 */
import { main } from './main.js';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

const code = await main(
  process.argv.slice(2),
  process.env,
  { stdout: process.stdout, stderr: process.stderr },
  { signal: stop.signal },
);
process.exitCode = code;
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
