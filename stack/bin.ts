#!/usr/bin/env node
/** Process entry of `npm start`: Ctrl-C (SIGINT) or SIGTERM stops the IdP and the service cleanly. */
import { runStack } from './main.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());
process.exitCode = await runStack({ signal: controller.signal });
