/**
 * The service through a database outage: stop the database mid-traffic → 503 `unavailable`
 * with the envelope and Retry-After, /readyz fails, /healthz stays 200; start it again → the same instance serves
 * again by itself, and every write that got a 2xx is there.
 */
import { expect } from 'chai';
import { migrate } from '../../../server/store/migrate.js';
import { createMongoStore } from '../../../server/store/mongo-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS } from '../api/api-fixtures.js';
import { createFerretDb, ferretdbAvailable, FERRETDB_BIN, type FerretDb } from './ferretdb-process.js';
import { uniqueDbName } from './mongo-test-db.js';
import { notRunHere } from '../../support/outside-npm.js';

describe('the service through a database outage', function () {
  if (!ferretdbAvailable()) {
    // Stopping and restarting the database needs a server of the test's own: the FerretDB build of .ci/ferretdb.sh.
    notRunHere(`no FerretDB binary at ${FERRETDB_BIN} (to enable: source .ci/ferretdb.sh && ferretdb_build)`);
    return;
  }
  this.timeout(90_000);
  let db: FerretDb;
  let h: ServiceHarness;

  before(async () => {
    db = await createFerretDb(uniqueDbName());
    const store = await createMongoStore(db.uri, { serverSelectionTimeoutMS: 500 });
    await migrate(store.connection);
    h = await startService({ store, env: NO_RATE_LIMITS });
  });
  after(async () => {
    await h?.close();
    await db?.dispose();
  });

  it('answers 503 while the database is down and serves again when it returns, keeping every acknowledged write', async () => {
    const org = await h.createOrganization('enterprise');
    const auth = `Bearer ${await h.token()}`;
    const url = `/api/v1/organizations/${org.id}/registrations`;
    let n = 0;
    const create = () =>
      h.request
        .post(url)
        .set('Authorization', auth)
        .send({ name: `app ${(n += 1)}`, templateId: 'tpl_web' });

    const before = await Promise.all([create(), create(), create()]);
    expect(before.map((r) => r.status)).to.deep.equal([201, 201, 201]);
    // Mid-traffic: requests are on their way while the database stops.
    const during = [create(), create(), create(), create()];
    await db.stop();
    const answered = [...before, ...(await Promise.all(during))];
    for (const r of answered) expect([201, 503], JSON.stringify(r.body)).to.include(r.status);

    const down = await h.request.get(url).set('Authorization', auth);
    expect(down.status).to.equal(503);
    expect(down.body.error.code).to.equal('unavailable');
    expect(down.body.error.requestId).to.be.a('string');
    expect(JSON.stringify(down.body)).to.not.match(/mongo|ECONNREFUSED|selection/i);
    expect(down.headers['retry-after']).to.match(/^\d+$/);
    const write = await create();
    expect([write.status, write.body.error?.code]).to.deep.equal([503, 'unavailable']);
    const ready = await h.request.get('/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.body.checks.store.status).to.equal('error');
    expect((await h.request.get('/healthz')).status).to.equal(200);

    await db.start();
    let readyAgain = false;
    for (let i = 0; i < 100 && !readyAgain; i += 1) {
      readyAgain = (await h.request.get('/readyz')).status === 200;
      if (!readyAgain) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(readyAgain, '/readyz answered 200 again after the database came back').to.equal(true);

    const after = await create();
    expect(after.status).to.equal(201);
    for (const r of [...answered, after].filter((x) => x.status === 201)) {
      const read = await h.request.get(`${url}/${r.body.id}`).set('Authorization', auth);
      expect(read.status, `registration ${r.body.id} acknowledged with 201 is readable`).to.equal(200);
    }
  });
});
