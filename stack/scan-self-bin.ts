#!/usr/bin/env node
/** Process entry of `npm run scan:self`: against the running `npm start` (its state file), or API_AUTH_ISSUER / PUBLIC_BASE_URL. */
import { runningStack } from './running-stack.js';
import { scanSelf } from './scan-self.js';

const stack = runningStack();
try {
  process.exitCode = await scanSelf({
    idp: stack.idp,
    service: stack.service,
    audience: stack.audience,
    scannerArgs: process.argv.slice(2),
    stdout: process.stdout,
    stderr: process.stderr,
  });
} catch (err) {
  const cause = (err as { cause?: { code?: string } }).cause;
  process.stderr.write(
    `scan:self: ${(err as Error).message}${cause?.code === 'ECONNREFUSED' ? ' (is `npm start` running?)' : ''}\n`,
  );
  process.exitCode = 1;
}
