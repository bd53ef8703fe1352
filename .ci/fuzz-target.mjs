#!/usr/bin/env node
// The live target of the schemathesis run (.ci/schemathesis.sh): the `npm start` stack (stub IdP + service, demo
// data, on free loopback ports; MONGODB_URI picks the store) plus alice's real token, with the webhook scopes. Writes
// {url, token, organizationId, registrationId, deletableRegistrationId (drafts made for the run), webhookId,
// deletableWebhookId, deliveryId (webhooks to a receiver on loopback, and a delivery of a submission),
// activeRegistrationId, changeSetId (the demo's active registration and its pending change set)} as JSON to the file
// named by argv[2] once ready; runs until SIGTERM.
import { writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { runStack } from '../dist/stack/main.js';
import { DEMO } from '../dist/stack/demo.js';
import { DEMO_REGISTRATIONS } from '../dist/stack/demo-registrations.js';
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
// Where the run's webhooks deliver: a receiver that takes everything.
const receiver = createHttpServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks`;

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
        scope: [...DEMO.scopes, 'webhooks:read', 'webhooks:write'].join(' '),
        resource: urls.audience,
        redirectUri: DEMO.redirectUri,
        loginHint: DEMO.user,
      })
        .then(async (token) => {
          const base = `${urls.service}/api/v1/organizations/${DEMO.organizationId}`;
          const call = async (path, method, body, expected) => {
            const res = await fetch(`${base}${path}`, {
              method,
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              ...(body ? { body: JSON.stringify(body) } : {}),
            });
            if (res.status !== expected) throw new Error(`${method} ${path} for the fixtures answered ${res.status}`);
            return res.json();
          };
          const draft = async (name) =>
            (
              await call(
                '/registrations',
                'POST',
                { name, templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } },
                201,
              )
            ).id;
          const webhook = async (description) =>
            (
              await call(
                '/webhooks',
                'POST',
                { url: receiverUrl, events: ['registration.submitted'], description },
                201,
              )
            ).id;
          // Two drafts and two webhooks: DELETE gets its own, so deleting it cannot leave every other operation on
          // that id a 404.
          const registrationId = await draft('Fuzzing fixture');
          const deletableRegistrationId = await draft('Fuzzing fixture to delete');
          const webhookId = await webhook('Fuzzing fixture');
          const deletableWebhookId = await webhook('Fuzzing fixture to delete');
          // A submission, so that the webhook has a delivery for {deliveryId} (redeliver).
          await call(
            `/registrations/${await draft('Fuzzing fixture submitted')}/actions/submit`,
            'POST',
            undefined,
            200,
          );
          let deliveryId;
          for (let i = 0; i < 100 && !deliveryId; i += 1) {
            deliveryId = (await call(`/webhooks/${webhookId}/deliveries`, 'GET', undefined, 200)).data[0]?.id;
            if (!deliveryId) await new Promise((resolve) => setTimeout(resolve, 100));
          }
          if (!deliveryId) throw new Error('the fixture webhook got no delivery of the submission in 10 s');
          // The demo's active registration and the change set pending on it (stack/demo-registrations.ts).
          const registrations = await call('/registrations?limit=100', 'GET', undefined, 200);
          const active = registrations.data.find((r) => r.name === DEMO_REGISTRATIONS.active);
          if (!active) throw new Error(`the demo has no registration named ${DEMO_REGISTRATIONS.active}`);
          const changeSetId = (await call(`/registrations/${active.id}/change-sets`, 'GET', undefined, 200)).data[0]
            ?.id;
          if (!changeSetId) throw new Error(`${DEMO_REGISTRATIONS.active} has no change set`);
          await writeFile(
            out,
            JSON.stringify({
              url: urls.service,
              token,
              organizationId: DEMO.organizationId,
              registrationId,
              deletableRegistrationId,
              webhookId,
              deletableWebhookId,
              deliveryId,
              activeRegistrationId: active.id,
              changeSetId,
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
receiver.close();
