#!/usr/bin/env node
// The live target of the schemathesis run (.ci/schemathesis.sh): the `npm start` stack (stub IdP + service, demo
// data, on free loopback ports; MONGODB_URI picks the store) plus alice's real token. Writes
// {url, token, organizationId, registrationId, deletableRegistrationId (drafts made for the run)} as JSON to the file named by argv[2] once ready; runs until SIGTERM.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { runStack } from '../dist/stack/main.js';
import { DEMO } from '../dist/stack/demo.js';
import { userToken } from '../dist/stack/tokens.js';

const out = process.argv[2];
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
  });

const [idpPort, servicePort, internalPort] = [await freePort(), await freePort(), await freePort()];
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => controller.abort());
const env = {
  ...process.env,
  INTERNAL_PORT: String(internalPort),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  // The fuzzer sends thousands of requests from one subject: the pro plan's 600 a minute would turn most into 429.
  RATE_LIMIT_PER_MINUTE_PRO: '1000000',
};
process.exitCode = await runStack(
  { idpPort, port: servicePort, internalPort, logLevel: env.LOG_LEVEL },
  {
    env,
    signal: controller.signal,
    stdout: { write: () => true },
    onReady: (urls) => {
      userToken({
        issuer: urls.idp,
        clientId: DEMO.clientId,
        clientSecret: DEMO.clientSecret,
        scope: DEMO.scopes.join(' '),
        resource: urls.audience,
        redirectUri: DEMO.redirectUri,
        loginHint: DEMO.user,
      })
        .then(async (token) => {
          const draft = async (name) => {
            const res = await fetch(`${urls.service}/api/v1/organizations/${DEMO.organizationId}/registrations`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({
                name,
                templateId: 'tpl_web',
                config: { redirectUris: ['https://app.example.com/cb'] },
              }),
            });
            if (res.status !== 201) throw new Error(`creating the fixture registration answered ${res.status}`);
            return (await res.json()).id;
          };
          // Two drafts: DELETE gets its own, so deleting it cannot leave every other {id} operation on a 404.
          const registrationId = await draft('Fuzzing fixture');
          const deletableRegistrationId = await draft('Fuzzing fixture to delete');
          await writeFile(
            out,
            JSON.stringify({
              url: urls.service,
              token,
              organizationId: DEMO.organizationId,
              registrationId,
              deletableRegistrationId,
            }),
          );
        })
        .catch((err) => {
          process.stderr.write(`fuzz-target: cannot prepare the target: ${err.message}\n`);
          controller.abort();
        });
    },
  },
);
