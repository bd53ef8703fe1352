#!/usr/bin/env node
/**
 * `npm run -s token [-- --user bob | --machine | --reviewer]`: prints an access token for the running `npm start`
 * stack — a user's (headless code + PKCE), the demo client's (client credentials), or reviewer rita's for the
 * internal surface (gatehouse:review and gatehouse:admin, audience of the internal surface).
 */
import { parseArgs } from 'node:util';
import { DEMO } from './demo.js';
import { runningStack } from './running-stack.js';
import { machineToken, userToken } from './tokens.js';

const HELP = `Usage: npm run -s token [-- --user <sub> | --machine | --reviewer]
Prints an access token from the stub IdP of \`npm start\`:
  (default)      alice's token through a headless authorization code + PKCE flow
  --user <sub>   another user's (bob, rita)
  --machine      the demo client's own token (client credentials)
  --reviewer     rita's token for the reviewer surface (gatehouse:review gatehouse:admin)
Follows the ports of the running \`npm start\` (its state file in the temp dir); API_AUTH_ISSUER, PUBLIC_BASE_URL,
API_AUTH_AUDIENCE and INTERNAL_AUTH_AUDIENCE override them when the stack runs elsewhere.
`;

try {
  const { values } = parseArgs({
    options: {
      user: { type: 'string' },
      machine: { type: 'boolean', default: false },
      reviewer: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
  } else {
    const stack = runningStack();
    const base = { issuer: stack.idp, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret };
    const api = { scope: DEMO.scopes.join(' '), resource: stack.audience };
    const internal = { scope: DEMO.reviewerScopes.join(' '), resource: stack.internalAudience };
    const token = values.machine
      ? await machineToken({ ...base, ...api })
      : await userToken({
          ...base,
          ...(values.reviewer ? internal : api),
          redirectUri: DEMO.redirectUri,
          loginHint: values.user ?? (values.reviewer ? DEMO.reviewer : DEMO.user),
        });
    process.stdout.write(`${token}\n`);
  }
} catch (err) {
  const cause = (err as { cause?: { code?: string } }).cause;
  const hint = cause?.code === 'ECONNREFUSED' ? ' (is `npm start` running?)' : '';
  process.stderr.write(`token: ${(err as Error).message}${hint}\n`);
  process.exitCode = 1;
}
