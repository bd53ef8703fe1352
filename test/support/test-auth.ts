/**
 * A local authorization server for service tests: an RSA key, its JWKS served on 127.0.0.1 (port 0), and a
 * signer for RFC 9068 access tokens. Tests point `API_AUTH_*` at it and call `close()` when done.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type CryptoKey } from 'jose';

export interface TestAuth {
  issuer: string;
  jwksUri: string;
  audience: string;
  kid: string;
  publicJwk: JWK;
  privateKey: CryptoKey;
  /** Signs an `at+jwt` RS256 token; `claims` and `header` override the defaults (`undefined` removes a claim). */
  token(claims?: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** Makes the JWKS endpoint answer 503 (true) or serve the key again (false). */
  setJwksDown(down: boolean): void;
  /** How many times the JWKS was fetched. */
  jwksFetches(): number;
  /** Service settings pointing at this server (JWT only unless extra settings are merged in). */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startTestAuth(options: { audience?: string } = {}): Promise<TestAuth> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'test-key-1';
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  let down = false;
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    if (req.url === '/jwks') {
      fetches += 1;
      if (down) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const audience = options.audience ?? 'http://127.0.0.1:3000/api/v1';

  async function token(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      iss: issuer,
      aud: audience,
      sub: 'alice',
      client_id: 'test-client',
      scope: 'registrations:read registrations:write change_sets:write',
      iat: now,
      exp: now + 300,
      jti: `jti-${Math.random().toString(36).slice(2)}`,
      ...claims,
    };
    // A claim given as `undefined` is left out of the token.
    return new SignJWT(Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined)))
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid, ...header })
      .sign(privateKey);
  }

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    audience,
    kid,
    publicJwk,
    privateKey,
    token,
    setJwksDown: (value) => {
      down = value;
    },
    jwksFetches: () => fetches,
    env: (extra = {}) => ({
      API_AUTH_ISSUER: issuer,
      API_AUTH_JWKS_URI: `${issuer}/jwks`,
      API_AUTH_AUDIENCE: audience,
      API_AUTH_TOKEN_TYPES: 'jwt',
      LOG_LEVEL: 'silent',
      ...extra,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
