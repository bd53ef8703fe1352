#!/usr/bin/env node
/** Process entry of `npm start`: flags (or their environment variables), then the stack until Ctrl-C (SIGINT) or SIGTERM. */
import { parseArgs } from 'node:util';
import { runStack } from './main.js';
import { stackHelp } from './settings.js';

function port(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new Error(`${flag} must be a port number (0-65535), got "${value}"`);
  return n;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      'internal-port': { type: 'string' },
      'idp-port': { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }));
  for (const [flag, env] of [
    ['port', 'PORT'],
    ['internal-port', 'INTERNAL_PORT'],
    ['idp-port', 'IDP_PORT'],
  ] as const) {
    port(values[flag] ?? process.env[env], values[flag] === undefined ? env : `--${flag}`);
  }
} catch (err) {
  process.stderr.write(`npm start: ${(err as Error).message} (npm start -- --help lists the options)\n`);
  process.exit(2);
}

if (values.help) {
  process.stdout.write(stackHelp());
} else {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  process.exitCode = await runStack({
    signal: controller.signal,
    servicePort: port(values.port, '--port'),
    internalPort: port(values['internal-port'], '--internal-port'),
    idpPort: port(values['idp-port'], '--idp-port'),
    logLevel: values['log-level'],
  });
}
