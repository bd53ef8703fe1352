/** Process wiring of `npm run worker:dev` (see dev.ts): Ctrl-C or SIGTERM stops the local worker. */
import { runDev } from './dev.js';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
process.exitCode = await runDev({
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
});
