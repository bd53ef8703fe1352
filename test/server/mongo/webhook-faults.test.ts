/**
 * Webhooks under faults (the fault suite's webhook part): registrations are submitted and approved while the
 * receiver is down, then the test's own FerretDB is killed (SIGKILL) and restarted on the same data while the
 * dispatcher keeps polling, then the receiver comes back. Counted at the receiver: every event arrives, each
 * `webhook-id` exactly once, each signature valid (the `standardwebhooks` verifier). The service runs as `main.ts`
 * runs it: the internal surface's dispatcher polls, retries with backoff, and the outbox drain delivers what a
 * fault kept from being delivered inline.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import supertest from 'supertest';
import { Webhook as Verifier } from 'standardwebhooks';
import { migrate } from '../../../server/store/migrate.js';
import { createInternalSurface, type InternalSurface } from '../../../server/internal/internal-surface.js';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS } from '../api/api-fixtures.js';
import { startReceiver, type WebhookReceiver } from '../components/webhooks/webhook-receiver.js';
import { createFerretDb, ferretdbAvailable, FERRETDB_BIN, type FerretDb } from './ferretdb-process.js';
import { MONGODB_URI, uniqueDbName } from './mongo-test-db.js';
import { suiteNotRun } from '../../support/outside-npm.js';

const INTERNAL_AUDIENCE = 'http://127.0.0.1:3001/internal';
const REGISTRATIONS = 4;
const DOWN_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const TITLE = 'webhooks under a receiver outage and a database crash (fault suite)';

if (!MONGODB_URI)
  suiteNotRun(
    TITLE,
    'MONGODB_URI is unset (the fault suite runs with the mongo suites: CI, or source .ci/ferretdb.sh; ferretdb_start)',
  );
else if (!ferretdbAvailable())
  suiteNotRun(TITLE, `no FerretDB binary at ${FERRETDB_BIN} (run ferretdb_build of .ci/ferretdb.sh)`);
else {
  describe(TITLE, function () {
    this.timeout(120_000);
    let db: FerretDb;
    let store: MongoStore;
    let h: ServiceHarness;
    let internal: InternalSurface;
    let receiver: WebhookReceiver;

    before(async () => {
      db = await createFerretDb(uniqueDbName());
      store = await createMongoStore(db.uri, { serverSelectionTimeoutMS: 500 });
      await migrate(store.connection);
      h = await startService({
        store,
        env: {
          ...NO_RATE_LIMITS,
          LOG_LEVEL: 'silent',
          INTERNAL_AUTH_AUDIENCE: INTERNAL_AUDIENCE,
          PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOKS_RETRY_BASE_MS: '100',
        },
      });
      internal = createInternalSurface(h.deps);
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver?.close();
      await internal?.stop();
      await h?.close();
      await db?.dispose();
    });

    it('delivers every event of an outage and a restart once per webhook-id, each signed', async () => {
      const org = await h.createOrganization('enterprise');
      const owner = `Bearer ${await h.token({ sub: 'alice', scope: 'registrations:read registrations:write webhooks:read webhooks:write' })}`;
      const reviewer = `Bearer ${await h.token({ sub: 'rita', scope: 'gatehouse:review', aud: INTERNAL_AUDIENCE })}`;
      const reviews = supertest(internal.app);
      const base = `/api/v1/organizations/${org.id}`;
      const hook = await h.request
        .post(`${base}/webhooks`)
        .set('Authorization', owner)
        .send({ url: receiver.url, events: ['registration.submitted', 'registration.approved'] });
      expect(hook.status, JSON.stringify(hook.body)).to.equal(201);

      await receiver.down();
      const ids: string[] = [];
      for (let i = 0; i < REGISTRATIONS; i += 1) {
        const created = await h.request
          .post(`${base}/registrations`)
          .set('Authorization', owner)
          .send({
            name: `outage ${i}`,
            clientType: 'confidential',
            applicationType: 'web',
            policyProfileId: 'pp_standard',
            config: { redirectUris: ['https://app.example.com/callback'], grantTypes: ['authorization_code'] },
          });
        expect(created.status, JSON.stringify(created.body)).to.equal(201);
        const submitted = await h.request
          .post(`${base}/registrations/${created.body.id}/actions/submit`)
          .set('Authorization', owner)
          .send({});
        expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
        const approved = await reviews
          .post(`/internal/v1/organizations/${org.id}/registrations/${created.body.id}/actions/approve`)
          .set('Authorization', reviewer)
          .send({});
        expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
        ids.push(created.body.id as string);
      }
      // Let the dispatcher fail against the closed port a few times before the database goes.
      await sleep(500);
      await db.kill();
      await sleep(DOWN_MS);
      await db.start();
      await receiver.up();
      const upAt = Date.now();

      const expected = REGISTRATIONS * 2;
      const end = Date.now() + 60_000;
      while (new Set(receiver.received.map((m) => m.headers['webhook-id'])).size < expected && Date.now() < end)
        await sleep(200);
      const allAfterMs = Date.now() - upAt;
      // A little longer: a second send of an id would show now.
      await sleep(1_000);

      const verifier = new Verifier(hook.body.secret as string);
      const events = receiver.received.map(
        (m) =>
          verifier.verify(m.body, m.headers as Record<string, string>) as {
            type: string;
            data: { registration: { id: string } };
          },
      );
      const perId = new Map<string, number>();
      for (const m of receiver.received)
        perId.set(String(m.headers['webhook-id']), (perId.get(String(m.headers['webhook-id'])) ?? 0) + 1);
      const seen = events.map((e) => `${e.data.registration.id} ${e.type}`).sort();
      console.log(
        `      webhook faults: ${receiver.received.length} requests for ${perId.size} webhook-ids (${expected} events), all ${allAfterMs} ms after the receiver and the database were back`,
      );
      expect(seen).to.deep.equal(
        ids.flatMap((id) => [`${id} registration.approved`, `${id} registration.submitted`]).sort(),
      );
      expect(
        [...perId.values()].filter((n) => n > 1),
        'webhook-ids received more than once',
      ).to.deep.equal([]);

      const deliveries = await h.request.get(`${base}/webhooks/${hook.body.id}/deliveries`).set('Authorization', owner);
      expect(deliveries.status).to.equal(200);
      const listed = deliveries.body.data as { status: string; attempts: { error?: string }[] }[];
      expect(listed.map((d) => d.status)).to.deep.equal(Array(expected).fill('succeeded'));
      expect(
        listed.filter((d) => d.attempts[0].error === 'ECONNREFUSED'),
        'deliveries that met the closed receiver first',
      ).not.to.deep.equal([]);
    });
  });
}
