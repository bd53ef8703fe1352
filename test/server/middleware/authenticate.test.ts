import { createPublicKey } from 'node:crypto';
import { expect } from 'chai';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { startAuthTestApp, type AuthTestApp } from './auth-test-app.js';

/** The challenge of a refused token names the rule it broke first (RFC 6750 §3, error_description). */
const challengeFor = (rule: string) =>
  new RegExp(`^Bearer realm="gatehouse", error="invalid_token", error_description="${rule}: [^"]+"$`);

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('authenticate: JWT access tokens', () => {
  let t: AuthTestApp;
  const now = () => Math.floor(Date.now() / 1000);

  before(async () => {
    t = await startAuthTestApp();
  });
  after(async () => {
    await t.close();
  });

  async function expectInvalidToken(token: string, rule: string): Promise<void> {
    const res = await t.request.get('/whoami').set('Authorization', `Bearer ${token}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(401);
    expect(res.headers['www-authenticate']).to.match(challengeFor(rule));
    expect(res.body.error.code).to.equal('invalid_token');
    expect(res.body.error.requestId).to.equal(res.headers['x-request-id']);
  }

  it('accepts a valid at+jwt token and normalises it into the principal', async () => {
    const res = await t.request
      .get('/whoami')
      .set('Authorization', `Bearer ${await t.auth.token({ scope: 'registrations:read' })}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      sub: 'alice',
      clientId: 'test-client',
      scopes: ['registrations:read'],
      tokenKind: 'jwt',
    });
  });

  it('answers 401 with a challenge without error when no token is sent (RFC 6750 §3.1)', async () => {
    const res = await t.request.get('/whoami');
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.equal('Bearer realm="gatehouse"');
    expect(res.body.error.code).to.equal('unauthorized');
  });

  it('reads the token from the Authorization header only, never from the query string', async () => {
    const res = await t.request.get(`/whoami?access_token=${await t.auth.token()}`);
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.equal('Bearer realm="gatehouse"');
  });

  it('answers 401 without error for another authentication scheme', async () => {
    const res = await t.request.get('/whoami').set('Authorization', 'Basic YWxpY2U6c2VjcmV0');
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.equal('Bearer realm="gatehouse"');
  });

  it('answers 400 invalid_request for a Bearer header without a well-formed token', async () => {
    for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer  two-spaces', 'Bearer tok"en']) {
      const res = await t.request.get('/whoami').set('Authorization', header);
      expect(res.status, header).to.equal(400);
      expect(res.body.error.code).to.equal('invalid_request');
      expect(res.headers['www-authenticate']).to.equal('Bearer realm="gatehouse", error="invalid_request"');
    }
  });

  it('refuses alg none', async () => {
    const payload = {
      iss: t.auth.issuer,
      aud: t.auth.audience,
      sub: 'alice',
      client_id: 'c',
      iat: now(),
      exp: now() + 300,
      jti: 'j',
    };
    await expectInvalidToken(`${b64url({ alg: 'none', typ: 'at+jwt' })}.${b64url(payload)}.`, 'algorithm');
  });

  it('refuses HS256 signed with the public key as the HMAC secret', async () => {
    const pem = createPublicKey({ key: t.auth.publicJwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const token = await new SignJWT({
      aud: t.auth.audience,
      sub: 'alice',
      client_id: 'c',
      jti: 'j',
      scope: 'registrations:read',
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: t.auth.kid })
      .setIssuer(t.auth.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(String(pem)));
    await expectInvalidToken(token, 'algorithm');
  });

  it('refuses an expired token and says it expired, with when', async () => {
    const exp = now() - 600;
    const res = await t.request
      .get('/whoami')
      .set('Authorization', `Bearer ${await t.auth.token({ iat: now() - 3600, exp })}`);
    expect(res.status).to.equal(401);
    const when = new Date(exp * 1000).toISOString();
    expect(res.body.error).to.include({
      code: 'invalid_token',
      message: `The access token was refused (expired: the access token expired at ${when}).`,
    });
    expect(res.headers['www-authenticate']).to.equal(
      `Bearer realm="gatehouse", error="invalid_token", error_description="expired: the access token expired at ${when}"`,
    );
  });

  it('refuses a token that is not yet valid', async () => {
    await expectInvalidToken(await t.auth.token({ nbf: now() + 600 }), 'not_yet_valid');
  });

  it('refuses a token from another issuer', async () => {
    await expectInvalidToken(await t.auth.token({ iss: 'https://evil.example' }), 'issuer');
  });

  it('refuses a token for another audience and names both audiences, never the token', async () => {
    const token = await t.auth.token({ aud: 'https://other-api.example' });
    const res = await t.request.get('/whoami').set('Authorization', `Bearer ${token}`);
    expect(res.status).to.equal(401);
    const said = `audience: the access token is for https://other-api.example, not ${t.auth.audience}`;
    expect(res.body.error.code).to.equal('invalid_token');
    expect(res.body.error.message).to.include(said);
    const challenge = String(res.headers['www-authenticate']);
    expect(challenge).to.match(/^Bearer realm="gatehouse", error="invalid_token", error_description="[^"]*"$/);
    expect(challenge).to.include(said);
    expect(JSON.stringify(res.body) + challenge).to.not.include(token.split('.')[1]);
  });

  it('keeps the description generic for a forged token that claims another audience', async () => {
    const payload = {
      iss: t.auth.issuer,
      aud: 'https://other-api.example',
      sub: 'alice',
      client_id: 'c',
      iat: now(),
      exp: now() + 300,
      jti: 'j',
    };
    const [header, , signature] = (await t.auth.token()).split('.');
    await expectInvalidToken(`${header}.${b64url(payload)}.${signature}`, 'signature');
  });

  it('refuses a token without exp (jsonwebtoken would accept it)', async () => {
    await expectInvalidToken(await t.auth.token({ exp: undefined }), 'claims');
  });

  it('refuses a JWT whose typ is not at+jwt (an ID token replayed as an access token)', async () => {
    await expectInvalidToken(await t.auth.token({}, { typ: 'JWT' }), 'token_type');
    await expectInvalidToken(await t.auth.token({}, { typ: undefined }), 'token_type');
  });

  it('accepts typ application/at+jwt (RFC 7515 §4.1.9 media type form)', async () => {
    const res = await t.request
      .get('/whoami')
      .set('Authorization', `Bearer ${await t.auth.token({}, { typ: 'application/at+jwt' })}`);
    expect(res.status).to.equal(200);
  });

  it('refuses tokens missing sub, client_id or jti (RFC 9068 §2.2)', async () => {
    for (const claim of ['sub', 'client_id', 'jti', 'iat'])
      await expectInvalidToken(await t.auth.token({ [claim]: undefined }), 'claims');
  });

  it('refuses a token signed under an unknown kid', async () => {
    await expectInvalidToken(await t.auth.token({}, { kid: 'not-a-known-key' }), 'unknown_key');
  });

  it('refuses a token whose signature was tampered with', async () => {
    const token = await t.auth.token();
    const [h, p] = token.split('.');
    const forged = `${h}.${b64url({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'mallory' })}.${token.split('.')[2]}`;
    await expectInvalidToken(forged, 'signature');
  });

  it('does not let a CORS preflight through unauthenticated (express-jwt skips such OPTIONS requests)', async () => {
    const [h, p] = (await t.auth.token()).split('.');
    const unsigned = `${h}.${p}.${Buffer.from('not a signature').toString('base64url')}`;
    const res = await t.request
      .options('/whoami')
      .set('Access-Control-Request-Headers', 'authorization')
      .set('Authorization', `Bearer ${unsigned}`);
    expect(res.status).to.equal(401);
  });

  it('ignores keys embedded in the header (jwk injection) and verifies with the configured JWKS only', async () => {
    const attacker = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(attacker.publicKey);
    const token = await new SignJWT({ aud: t.auth.audience, sub: 'mallory', client_id: 'c', jti: 'j' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: t.auth.kid, jwk })
      .setIssuer(t.auth.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(attacker.privateKey);
    await expectInvalidToken(token, 'signature');
  });

  it('refuses a token with critical header extensions it does not understand (RFC 7515 §4.1.11)', async () => {
    // Signed by hand: jose refuses to produce a `crit` it does not know itself.
    const header = b64url({ alg: 'RS256', typ: 'at+jwt', kid: t.auth.kid, crit: ['exp-ext'], 'exp-ext': true });
    const body = b64url({
      iss: t.auth.issuer,
      aud: t.auth.audience,
      sub: 'alice',
      client_id: 'c',
      iat: now(),
      exp: now() + 300,
      jti: 'j',
    });
    const signature = await crypto.subtle.sign(
      'RSASSA-PKCS1-v1_5',
      t.auth.privateKey,
      new TextEncoder().encode(`${header}.${body}`),
    );
    await expectInvalidToken(`${header}.${body}.${Buffer.from(signature).toString('base64url')}`, 'malformed');
  });

  it('accepts a token expired within the clock tolerance (30 s by default)', async () => {
    const res = await t.request
      .get('/whoami')
      .set('Authorization', `Bearer ${await t.auth.token({ iat: now() - 300, exp: now() - 5 })}`);
    expect(res.status).to.equal(200);
  });

  it('refuses an opaque token when only JWTs are accepted', async () => {
    await expectInvalidToken('opaque-token-value', 'token_kind');
  });
});

describe('authenticate: the JWKS endpoint', () => {
  it('answers 503 unavailable with Retry-After when the JWKS cannot be fetched, never 500 or 401', async () => {
    const t = await startAuthTestApp();
    try {
      t.auth.setJwksDown(true);
      const res = await t.request.get('/whoami').set('Authorization', `Bearer ${await t.auth.token()}`);
      expect(res.status).to.equal(503);
      expect(res.body.error.code).to.equal('unavailable');
      expect(res.headers['retry-after']).to.match(/^\d+$/);
    } finally {
      await t.close();
    }
  });

  it('keeps accepting tokens while the JWKS is down once the key is cached', async () => {
    const t = await startAuthTestApp();
    try {
      const token = await t.auth.token();
      expect((await t.request.get('/whoami').set('Authorization', `Bearer ${token}`)).status).to.equal(200);
      t.auth.setJwksDown(true);
      expect((await t.request.get('/whoami').set('Authorization', `Bearer ${await t.auth.token()}`)).status).to.equal(
        200,
      );
      expect(t.auth.jwksFetches()).to.equal(1);
    } finally {
      await t.close();
    }
  });

  it('answers 401 (not 500) once a flood of unknown kids exhausts the JWKS refetch budget, and stops refetching', async () => {
    const t = await startAuthTestApp();
    try {
      for (let i = 0; i < 14; i += 1) {
        const res = await t.request
          .get('/whoami')
          .set('Authorization', `Bearer ${await t.auth.token({}, { kid: `unknown-${i}` })}`);
        expect(res.status, `request ${i}`).to.equal(401);
      }
      expect(t.auth.jwksFetches()).to.be.at.most(10);
    } finally {
      await t.close();
    }
  });
});
