import { scanTarget } from '../support/scan.js';
import {
  acceptsAlgNone,
  hs256Token,
  rs256Signer,
  startJwtTarget,
  verifiesHs256,
} from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const SECRET = 'a-long-random-secret-for-tests-0123456789';
const ID = 'jwt.alg_none';

describe('jwt.alg_none', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('fails with broken_authentication.alg_none (9.3) at the first unsigned token accepted', async () => {
    target = await startJwtTarget(acceptsAlgNone(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'failed', issues: { 'broken_authentication.alg_none': 9.3 }, requests: 1 });
  });

  it('passes after trying the four spellings of none against a server that verifies RS256 with jose', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });

  it('passes against an HS256 server that verifies the signature', async () => {
    target = await startJwtTarget(verifiesHs256(SECRET));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });

  it('is skipped when the supplied token itself is rejected (expired), so attacks cannot be told from rejections', async () => {
    target = await startJwtTarget(acceptsAlgNone(SECRET));
    const expired = hs256Token(SECRET, { sub: 'user-1', exp: Math.floor(Date.now() / 1000) - 60 });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(expired) });
    expectResult(outcome, ID, { status: 'skipped', reason: /supplied credential is rejected/, requests: 0 });
  });

  it('is skipped on a public endpoint, where any token "works" and proves nothing', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID], headers: bearer(hs256Token(SECRET)) });
    expectResult(outcome, ID, { status: 'skipped', reason: /does not require a credential/, requests: 0 });
  });

  it('is skipped without a JWT credential', async () => {
    target = await startJwtTarget(() => true, { public: true });
    const outcome = await scanTarget(target.url('/'), { checks: [ID] });
    expectResult(outcome, ID, { status: 'skipped', requests: 0 });
  });
});
