import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';

const organizationSchema = validatorFor('https://gatehouse.dev/schemas/api/organization.schema.json');

describe('GET /api/v1/organizations', () => {
  let h: ServiceHarness;
  let bearer: string;
  before(async () => {
    h = await startService();
    bearer = `Bearer ${await h.token()}`;
  });
  after(() => h.close());

  it('lists only the organizations the subject holds a grant for, with isDefault', async () => {
    const a = await h.createOrganization('pro');
    const b = await h.createOrganization('free', { isDefault: true });
    await h.createOrganization('enterprise', { subject: 'bob' });
    const res = await h.request.get('/api/v1/organizations').set('Authorization', bearer).expect(200);
    expect(res.body.nextCursor).to.equal(null);
    const isDefault = Object.fromEntries(
      res.body.data.map((o: { id: string; isDefault: boolean }) => [o.id, o.isDefault]),
    );
    expect(isDefault).to.deep.equal({ [a.id]: false, [b.id]: true });
    for (const org of res.body.data)
      expect(organizationSchema(org), JSON.stringify(organizationSchema.errors)).to.equal(true);
  });

  it('pages with limit and an opaque cursor, ending with nextCursor null', async () => {
    const h2 = await startService();
    try {
      const ids = [];
      for (let i = 0; i < 3; i += 1) ids.push((await h2.createOrganization('pro')).id);
      const auth = `Bearer ${await h2.token()}`;
      const all = await h2.request.get('/api/v1/organizations').set('Authorization', auth).expect(200);
      const order = all.body.data.map((o: { id: string }) => o.id);
      expect(order).to.have.members(ids);
      const first = await h2.request.get('/api/v1/organizations?limit=2').set('Authorization', auth).expect(200);
      expect(first.body.data.map((o: { id: string }) => o.id)).to.deep.equal(order.slice(0, 2));
      expect(first.body.nextCursor).to.be.a('string');
      expect(first.headers.link).to.match(/rel="next"/);
      const second = await h2.request
        .get(`/api/v1/organizations?limit=2&cursor=${first.body.nextCursor}`)
        .set('Authorization', auth)
        .expect(200);
      expect(second.body.nextCursor).to.equal(null);
      expect(second.body.data.map((o: { id: string }) => o.id)).to.deep.equal(order.slice(2));
    } finally {
      await h2.close();
    }
  });

  it("refuses another subject's cursor with 400 invalid_cursor", async () => {
    await h.createOrganization('pro');
    await h.createOrganization('pro');
    const first = await h.request.get('/api/v1/organizations?limit=1').set('Authorization', bearer).expect(200);
    const other = `Bearer ${await h.token({ sub: 'bob' })}`;
    const res = await h.request
      .get(`/api/v1/organizations?cursor=${first.body.nextCursor}`)
      .set('Authorization', other)
      .expect(400);
    expect(res.body.error.code).to.equal('invalid_cursor');
  });

  it('is rate limited per subject, with RateLimit headers', async () => {
    const res = await h.request.get('/api/v1/organizations').set('Authorization', bearer).expect(200);
    expect(res.headers['ratelimit-policy']).to.match(/^"subject";q=\d+;w=60$/);
    expect(res.headers.ratelimit).to.match(/^"subject";r=\d+;t=\d+$/);
  });

  it('answers an empty list to a subject without grants', async () => {
    const res = await h.request
      .get('/api/v1/organizations')
      .set('Authorization', `Bearer ${await h.token({ sub: 'nobody' })}`)
      .expect(200);
    expect(res.body).to.deep.equal({ data: [], nextCursor: null });
  });

  it('needs registrations:read', async () => {
    const res = await h.request
      .get('/api/v1/organizations')
      .set('Authorization', `Bearer ${await h.token({ scope: 'registrations:write' })}`)
      .expect(403);
    expect(res.body.error.code).to.equal('insufficient_scope');
  });

  it('answers 405 with Allow for other methods', async () => {
    const res = await h.request
      .post('/api/v1/organizations')
      .set('Authorization', bearer)
      .send({ name: 'x' })
      .expect(405);
    expect(res.headers.allow).to.equal('GET, HEAD');
  });
});
