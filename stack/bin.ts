#!/usr/bin/env node
/** Process entry of `npm start`: flags (or their environment variables), then the stack until Ctrl-C (SIGINT) or SIGTERM. */
import { readCommandLine } from '../lib/settings/command-line.js';
import { loadSettings } from '../lib/settings/load-settings.js';
import { runStack } from './main.js';
import { stackHelp, stackSettings, type StackConfig } from './settings.js';

let config: StackConfig | undefined;
try {
  const { flags, help } = readCommandLine(stackSettings.settings, process.argv.slice(2));
  if (!help) config = loadSettings(stackSettings, { flags, env: process.env });
} catch (err) {
  process.stderr.write(`npm start: ${(err as Error).message} (npm start -- --help lists the options)\n`);
  process.exit(2);
}

if (!config) {
  process.stdout.write(stackHelp());
} else {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
  process.exitCode = await runStack(config, { signal: controller.signal });
}
