/**
 * Two service instances (two `createApp` on two ports, two store connections) on one database, as behind a load
 * balancer (docs/architecture.md §R.10): rate limits, If-Match conflicts and Idempotency-Key records hold across them.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import supertest from 'supertest';
import { createApp } from '../../../server/app.js';
import { migrate } from '../../../server/store/migrate.js';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { seedRegistration } from '../api/api-fixtures.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { describeWithMongo, dropDatabase, uniqueDbName } from './mongo-test-db.js';

describeWithMongo('two service instances on one MongoDB', (uri) => {
  const dbName = uniqueDbName();
  let h: ServiceHarness;
  let secondStore: MongoStore;
  let secondServer: Server;
  let first: ReturnType<typeof supertest>;
  let second: ReturnType<typeof supertest>;
  let auth: string;

  before(async () => {
    const firstStore = await createMongoStore(uri, { dbName });
    await migrate(firstStore.connection);
    h = await startService({
      store: firstStore,
      env: {
        RATE_LIMIT_PER_MINUTE_FREE: '4',
        RATE_LIMIT_PER_MINUTE_PRO: '1000000',
        RATE_LIMIT_PER_MINUTE_ENTERPRISE: '1000000',
      },
    });
    secondStore = await createMongoStore(uri, { dbName });
    secondServer = createServer(createApp({ ...h.deps, store: secondStore }));
    await new Promise<void>((resolve) => secondServer.listen(0, '127.0.0.1', resolve));
    first = h.request;
    second = supertest(secondServer);
    auth = `Bearer ${await h.token()}`;
  });
  after(async () => {
    secondServer.closeAllConnections();
    await new Promise<void>((resolve) => secondServer.close(() => resolve()));
    await secondStore.close();
    await h.close();
    await dropDatabase(uri, dbName);
  });

  it('enforces one rate limit across both instances', async () => {
    const org = await h.createOrganization('free');
    const statuses: number[] = [];
    for (const instance of [first, second, first, second, first]) {
      statuses.push(
        (await instance.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', auth)).status,
      );
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 429]);
    const refused = await second.get(`/api/v1/organizations/${org.id}/registrations`).set('Authorization', auth);
    expect(refused.body.error.code).to.equal('rate_limited');
    expect(refused.headers['retry-after']).to.match(/^\d+$/);
  });

  it('lets one of two conflicting PATCHes sent to different instances win; the other gets 412', async () => {
    const org = await h.createOrganization('pro');
    for (let round = 0; round < 5; round += 1) {
      const record = await seedRegistration(h, org);
      const url = `/api/v1/organizations/${org.id}/registrations/${record.id}`;
      const results = await Promise.all(
        [first, second].map((instance, i) =>
          instance
            .patch(url)
            .set('Authorization', auth)
            .set('If-Match', '"1"')
            .send({ name: `name ${i}` }),
        ),
      );
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 412]);
      const winner = results.find((r) => r.status === 200);
      expect((await secondStore.registrations.get(org.id, record.id))?.name).to.equal(winner?.body.name);
    }
  });

  it('replays on the second instance a create whose Idempotency-Key was used on the first', async () => {
    const org = await h.createOrganization('pro');
    const url = `/api/v1/organizations/${org.id}/registrations`;
    const body = { name: 'Once only', templateId: 'tpl_web' };
    const created = await first
      .post(url)
      .set('Authorization', auth)
      .set('Idempotency-Key', '"two-instances-0001"')
      .send(body);
    expect(created.status).to.equal(201);
    const replayed = await second
      .post(url)
      .set('Authorization', auth)
      .set('Idempotency-Key', '"two-instances-0001"')
      .send(body);
    expect(replayed.status).to.equal(201);
    expect(replayed.body.id).to.equal(created.body.id);
    expect(replayed.headers.location).to.equal(created.headers.location);
    expect(await secondStore.registrations.count(org.id)).to.equal(1);
  });
});
