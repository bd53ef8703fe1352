/** The console on the internal app: mounted at /console only when its sign-in client is configured. */
import { expect } from 'chai';
import supertest from 'supertest';
import { createLogger } from '../../../../lib/logger.js';
import { loadServiceConfig } from '../../../../server/config.js';
import { createInternalApp, type InternalDeps } from '../../../../server/internal/app.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';

describe('review console on the internal app', () => {
  const base: InternalDeps = {
    config: loadServiceConfig({ API_AUTH_TOKEN_TYPES: 'jwt' }),
    store: createMemoryStore(),
    logger: createLogger({ level: 'silent', name: 'console-mount-test' }),
    clock: () => new Date(),
  };
  const oidc = {
    issuer: 'http://127.0.0.1:8484',
    clientId: 'console',
    clientSecret: 'secret',
    redirectUri: 'http://127.0.0.1:3001/console/callback',
  };

  it('sends a visitor of /console to sign in, with the console’s own security headers', async () => {
    const response = await supertest(createInternalApp({ ...base, console: { oidc } })).get('/console/');
    expect(response.status).to.equal(303);
    expect(response.headers.location).to.equal('/console/login?returnTo=%2Fconsole%2F');
    expect(response.headers['content-security-policy'])
      .to.contain("form-action 'self'")
      .and.contain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).to.equal('same-origin');
  });

  it('serves its stylesheet without a session (no external assets)', async () => {
    const response = await supertest(createInternalApp({ ...base, console: { oidc } })).get('/console/console.css');
    expect(response.status).to.equal(200);
    expect(response.headers['content-type']).to.match(/^text\/css/);
  });

  it('is not there without a configured sign-in client', async () => {
    const response = await supertest(createInternalApp(base)).get('/console/');
    expect(response.status).to.equal(404);
  });
});
