import { expect } from 'chai';
import { createMemoryStore } from '../../../server/store/memory-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';

describe('GET /healthz and GET /readyz', () => {
  let h: ServiceHarness;
  before(async () => {
    h = await startService();
  });
  after(async () => {
    await h.close();
  });

  it('GET /healthz answers 200 {status:"ok"} without a token', async () => {
    const res = await h.request.get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
    expect(res.headers['x-request-id']).to.be.a('string');
  });

  it('GET /readyz answers 200 with the store and schema checks when the store answers its ping', async () => {
    const res = await h.request.get('/readyz');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('ok');
    expect(res.body.checks.store).to.deep.equal({ status: 'ok' });
    expect(res.body.checks.schema.status).to.equal('ok');
  });

  it('GET /readyz answers 503 in the error envelope shape when the store ping fails, without the driver text', async () => {
    const store = createMemoryStore();
    store.ping = () => Promise.reject(new Error('MongoNetworkError: connect ECONNREFUSED 10.0.0.7:27017'));
    const down = await startService({ store });
    try {
      const res = await down.request.get('/readyz');
      expect(res.status).to.equal(503);
      expect(res.headers['retry-after']).to.match(/^\d+$/);
      expect(res.body.error).to.include({ code: 'unavailable', requestId: res.headers['x-request-id'] });
      expect(res.body.status).to.equal('unavailable');
      expect(res.body.checks.store.status).to.equal('error');
      expect(res.body.checks.store.error).to.be.a('string');
      expect(JSON.stringify(res.body)).to.not.contain('10.0.0.7');
      // Liveness does not depend on the store.
      expect((await down.request.get('/healthz')).status).to.equal(200);
    } finally {
      await down.close();
    }
  });
});
