#!/usr/bin/env node
/** `npm run token [-- --user bob | --machine]`: prints an access token for the running `npm start` stack. */
import { parseArgs } from 'node:util';
import { audienceFor, DEMO, serviceUrl } from './demo.js';
import { machineToken, userToken } from './tokens.js';

try {
  const { values } = parseArgs({
    options: { user: { type: 'string', default: DEMO.user }, machine: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  });
  if (values.help) {
    process.stdout.write('Usage: npm run -s token [-- --user <sub> | --machine]\nPrints an access token from the stub IdP of `npm start` (user token by headless code + PKCE, or client credentials).\n');
  } else {
    const request = {
      issuer: process.env.API_AUTH_ISSUER ?? `http://${DEMO.host}:${DEMO.idpPort}`,
      clientId: DEMO.clientId,
      clientSecret: DEMO.clientSecret,
      scope: DEMO.scopes.join(' '),
      resource: process.env.API_AUTH_AUDIENCE ?? audienceFor(process.env.PUBLIC_BASE_URL ?? serviceUrl()),
    };
    const token = values.machine
      ? await machineToken(request)
      : await userToken({ ...request, redirectUri: DEMO.redirectUri, loginHint: values.user });
    process.stdout.write(`${token}\n`);
  }
} catch (err) {
  const cause = (err as { cause?: { code?: string } }).cause;
  const hint = cause?.code === 'ECONNREFUSED' ? ' (is `npm start` running?)' : '';
  process.stderr.write(`token: ${(err as Error).message}${hint}\n`);
  process.exitCode = 1;
}
