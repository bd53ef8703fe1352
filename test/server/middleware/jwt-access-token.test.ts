/**
 * The verified-token memory of the JWT verifier: a token checked once is not re-verified on every call, yet is
 * never accepted past its `exp` (plus the clock tolerance), and callers never share a mutable principal.
 */
import { createPublicKey } from 'node:crypto';
import { expect } from 'chai';
import type { Request, Response } from 'express';
import { loadServiceConfig } from '../../../server/config.js';
import { createJwtVerifier } from '../../../server/middleware/jwt-access-token.js';
import type { SigningKeys } from '../../../server/middleware/signing-keys.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';

describe('the JWT verifier remembers verified tokens', () => {
  let auth: TestAuth;
  let keyLookups = 0;
  let verify: ReturnType<typeof createJwtVerifier>;

  before(async () => {
    auth = await startTestAuth();
    const key = createPublicKey({ key: auth.publicJwk as never, format: 'jwk' });
    const keys: SigningKeys = {
      async keyFor() {
        keyLookups += 1;
        return key;
      },
      hasUsableKeys: () => true,
      fetchKeys: async () => undefined,
    };
    verify = createJwtVerifier(loadServiceConfig(auth.env({ API_AUTH_CLOCK_TOLERANCE_S: '0' })), keys);
  });
  after(async () => {
    await auth.close();
  });

  const call = (token: string) => verify({ headers: { authorization: `Bearer ${token}` } } as Request, {} as Response);

  it('verifies a token once, then answers repeated calls from memory with a principal of their own', async () => {
    const token = await auth.token();
    const before = keyLookups;
    const first = await call(token);
    (first.scopes as Set<string>).clear();
    const second = await call(token);
    expect(keyLookups - before).to.equal(1);
    expect(second.sub).to.equal('alice');
    expect([...second.scopes]).to.include('registrations:read');
  });

  it('refuses a remembered token once its exp has passed', async () => {
    const token = await auth.token({ exp: Math.floor(Date.now() / 1000) + 2 });
    expect((await call(token)).sub).to.equal('alice');
    // exp is whole seconds: three seconds later it has passed whatever the sub-second start.
    await new Promise((resolve) => setTimeout(resolve, 3100));
    let refused: unknown;
    await call(token).catch((err: unknown) => (refused = err));
    expect((refused as { code?: string } | undefined)?.code).to.equal('invalid_token');
  });
});
