#!/usr/bin/env node
/** Process entry of `npm run scan:self` (against `npm start`'s default ports unless API_AUTH_ISSUER / PUBLIC_BASE_URL say otherwise). */
import { audienceFor, DEMO, serviceUrl } from './demo.js';
import { scanSelf } from './scan-self.js';

const service = process.env.PUBLIC_BASE_URL ?? serviceUrl();
try {
  process.exitCode = await scanSelf({
    idp: process.env.API_AUTH_ISSUER ?? `http://${DEMO.host}:${DEMO.idpPort}`,
    service,
    audience: process.env.API_AUTH_AUDIENCE ?? audienceFor(service),
    scannerArgs: process.argv.slice(2),
    stdout: process.stdout,
    stderr: process.stderr,
  });
} catch (err) {
  const cause = (err as { cause?: { code?: string } }).cause;
  process.stderr.write(`scan:self: ${(err as Error).message}${cause?.code === 'ECONNREFUSED' ? ' (is `npm start` running?)' : ''}\n`);
  process.exitCode = 1;
}
