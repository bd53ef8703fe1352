import { expect } from 'chai';
import { startService, type ServiceHarness } from '../../support/service-harness.js';

describe('createApp: the HTTP edge', () => {
  let h: ServiceHarness;
  before(async () => {
    h = await startService();
  });
  after(async () => {
    await h.close();
  });

  it('sends security headers and hides the framework', async () => {
    const res = await h.request.get('/healthz');
    expect(res.headers).to.not.have.property('x-powered-by');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers).to.not.have.property('etag');
  });

  it('serves the OpenAPI document without a token', async () => {
    const res = await h.request.get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.type).to.equal('application/json');
    expect(res.body.openapi).to.match(/^3\.1\./);
  });

  it('answers 404 not_found in the envelope for unknown paths outside the API', async () => {
    const res = await h.request.get('/nope');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({
      error: { code: 'not_found', message: 'No such resource.', requestId: res.headers['x-request-id'] },
    });
  });

  it('asks for a token before saying whether an API path exists', async () => {
    const res = await h.request.get('/api/v1/no-such-thing');
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.equal('Bearer realm="gatehouse"');
  });

  it('answers 404 not_found for unknown API paths with a valid token', async () => {
    const res = await h.request.get('/api/v1/no-such-thing').set('Authorization', `Bearer ${await h.token()}`);
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('reuses a well-formed inbound X-Request-Id in the header and the error body', async () => {
    const res = await h.request.get('/api/v1/organizations').set('X-Request-Id', 'trace-42');
    expect(res.headers['x-request-id']).to.equal('trace-42');
    expect(res.body.error.requestId).to.equal('trace-42');
  });

  it('authenticates organization routes: an expired token is 401 invalid_token, a valid one passes', async () => {
    const org = await h.createOrganization('pro');
    const path = `/api/v1/organizations/${org.id}/registrations`;
    const now = Math.floor(Date.now() / 1000);
    const expired = await h.request
      .get(path)
      .set('Authorization', `Bearer ${await h.token({ iat: now - 3600, exp: now - 600 })}`);
    expect(expired.status).to.equal(401);
    expect(expired.headers['www-authenticate']).to.contain('error="invalid_token"');
    expect((await h.request.get(path).set('Authorization', `Bearer ${await h.token()}`)).status).to.equal(200);
  });

  it('answers 403 insufficient_scope naming the scope when the token lacks it', async () => {
    const org = await h.createOrganization('pro');
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/registrations`)
      .set('Authorization', `Bearer ${await h.token({ scope: 'change_sets:write' })}`);
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('insufficient_scope');
    expect(res.headers['www-authenticate']).to.equal(
      'Bearer realm="gatehouse", error="insufficient_scope", scope="registrations:read"',
    );
  });
});

describe('createApp: authorization server outage', () => {
  it('answers 503 unavailable (never 500, never allowed) on API routes when the JWKS is down', async () => {
    const h = await startService();
    try {
      h.auth.setJwksDown(true);
      const org = await h.createOrganization('pro');
      const res = await h.request
        .get(`/api/v1/organizations/${org.id}/registrations`)
        .set('Authorization', `Bearer ${await h.token()}`);
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('unavailable');
      expect(res.headers['retry-after']).to.match(/^\d+$/);
    } finally {
      await h.close();
    }
  });
});
