/**
 * Auth failures explained (issue 26): every refused token leaves one debug line naming the rule it broke with what
 * was expected and what the token had — a wrong audience, a trailing slash on API_AUTH_ISSUER, expiry, an unknown
 * `kid`, a bad signature, an introspection answer `active: false`, an introspection endpoint that does not answer
 * (with its cause: code and address) — never the token itself; each listener says at start which authentication
 * settings are in effect. JWT and opaque tokens, both surfaces.
 */
import { createServer } from 'node:net';
import { expect } from 'chai';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from '../middleware/fake-authorization-server.js';
import { INTERNAL_AUDIENCE, startSurfaces, type Surfaces } from './surfaces.js';

/** A port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('refused tokens, explained in the log', () => {
  let auth: TestAuth;
  let as: FakeAuthorizationServer;
  let s: Surfaces;
  let env: Record<string, string>;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    auth = await startTestAuth();
    as = await startFakeAuthorizationServer(auth.jwksUri);
    env = {
      API_AUTH_ISSUER: auth.issuer,
      API_AUTH_JWKS_URI: auth.jwksUri,
      API_AUTH_AUDIENCE: auth.audience,
      API_AUTH_TOKEN_TYPES: 'jwt,opaque',
      API_AUTH_INTROSPECTION_URL: as.introspectionUrl,
      API_AUTH_CLIENT_ID: 'gatehouse-api',
      API_AUTH_CLIENT_SECRET: 'secret',
    };
    s = await startSurfaces(env);
  });
  after(async () => {
    await s.close();
    await as.close();
    await auth.close();
  });

  /** Sends `token` to the public API and returns the refusal line it left, checking nothing logged the token. */
  async function refusal(surfaces: Surfaces, token: string, path = '/api/v1/organizations') {
    const before = surfaces.lines().length;
    const app = path.startsWith('/internal') ? surfaces.internal : surfaces.public;
    const res = await app.get(path).set('Authorization', `Bearer ${token}`);
    const lines = surfaces.lines().slice(before);
    for (const line of lines) expect(JSON.stringify(line)).to.not.include(token);
    const refused = lines.filter((line) => String(line.msg).startsWith('access token refused'));
    expect(refused, JSON.stringify(lines)).to.have.length(1);
    expect(refused[0].level).to.equal(20);
    return { res, line: refused[0] };
  }

  it('names a wrong audience with both values', async () => {
    const { res, line } = await refusal(s, await auth.token({ aud: 'https://other.example/api' }));
    expect(res.status).to.equal(401);
    expect(line).to.include({ rule: 'audience', expected: auth.audience, tokenKind: 'jwt', surface: 'public' });
    expect(line.got).to.deep.equal(['https://other.example/api']);
  });

  it('shows a trailing slash on API_AUTH_ISSUER as the issuer expected against the one the token has', async () => {
    const slashed = await startSurfaces({ ...env, API_AUTH_ISSUER: `${auth.issuer}/` });
    try {
      const { line } = await refusal(slashed, await auth.token());
      expect(line).to.include({ rule: 'issuer', expected: `${auth.issuer}/` });
      expect(line.got).to.deep.equal([auth.issuer]);
    } finally {
      await slashed.close();
    }
  });

  it('says when an expired token expired', async () => {
    const exp = now() - 600;
    const { line } = await refusal(s, await auth.token({ iat: now() - 3600, exp }));
    expect(line).to.include({ rule: 'expired', got: new Date(exp * 1000).toISOString() });
  });

  it('names an unknown kid', async () => {
    const { line } = await refusal(s, await auth.token({}, { kid: 'retired-key-7' }));
    expect(line).to.include({ rule: 'unknown_key', got: 'retired-key-7' });
  });

  it('says a signature does not verify', async () => {
    const [header, payload, signature] = (await auth.token()).split('.');
    const forged = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
    const { line } = await refusal(s, forged);
    expect(line).to.include({ rule: 'signature', tokenKind: 'jwt' });
  });

  it('says the authorization server answered active: false for an opaque token', async () => {
    as.answer = () => ({ kind: 'json', body: { active: false } });
    const { res, line } = await refusal(s, 'opaque-token-inactive-1');
    expect(res.status).to.equal(401);
    expect(line).to.include({ rule: 'inactive', got: 'false', tokenKind: 'opaque' });
  });

  it('names an introspection endpoint that does not answer, with the connection error and address', async () => {
    const port = await closedPort();
    const unreachable = await startSurfaces({
      ...env,
      API_AUTH_INTROSPECTION_URL: `http://127.0.0.1:${port}/introspect`,
    });
    try {
      const { res, line } = await refusal(unreachable, 'opaque-token-unreachable-1');
      expect(res.status).to.equal(503);
      expect(line).to.include({ rule: 'introspection_unreachable', expected: `http://127.0.0.1:${port}/introspect` });
      const cause = JSON.stringify(line.cause);
      expect(cause).to.include('ECONNREFUSED');
      expect(cause).to.include(String(port));
    } finally {
      await unreachable.close();
    }
  });

  it('explains refusals on the internal surface too, against its own audience', async () => {
    const { line } = await refusal(s, await auth.token(), '/internal/v1/review-queue');
    expect(line).to.include({ rule: 'audience', expected: INTERNAL_AUDIENCE, surface: 'internal' });
  });

  it('says at start, per listener, which issuer, audience, endpoints, token kinds and algorithms are in effect', () => {
    const settings = s.lines().filter((line) => line.msg === 'authentication settings in effect');
    expect(settings.map((line) => line.surface)).to.deep.equal(['public', 'internal']);
    expect(settings[0]).to.include({
      level: 30,
      issuer: auth.issuer,
      audience: auth.audience,
      jwksUri: auth.jwksUri,
      introspectionEndpoint: as.introspectionUrl,
      allowMissingAudience: false,
    });
    expect(settings[0].tokenTypes).to.deep.equal(['jwt', 'opaque']);
    expect(settings[0].algorithms).to.deep.equal(['RS256', 'PS256', 'ES256']);
    expect(settings[1]).to.include({ audience: INTERNAL_AUDIENCE });
    expect(JSON.stringify(settings)).to.not.include('"secret"');
  });
});
