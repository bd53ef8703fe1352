import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanTarget } from '../support/scan.js';
import {
  confusesAlgorithms,
  hs256Token,
  rs256Signer,
  startJwtTarget,
  verifiesHs256,
} from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.hmac_confusion';
const ISSUE = { 'broken_authentication.hmac_confusion': 9.3 };

describe('jwt.hmac_confusion', () => {
  let target: Target | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await target?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('fails with broken_authentication.hmac_confusion (9.3) using the key of the published JWKS as HMAC secret', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(confusesAlgorithms(signer.publicPem, signer.verify), {
      jwks: { keys: [signer.publicJwk] },
    });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    // GET /.well-known/jwks.json, SPKI PEM (rejected), SPKI PEM without final newline (accepted: jose's PEM has none)
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 3 });
  });

  it('uses a public key file when given (jwtPublicKeyFile) and sends no lookup request', async () => {
    const signer = await rs256Signer();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-pub-'));
    const file = join(dir, 'public.pem');
    writeFileSync(file, signer.publicPem);
    target = await startJwtTarget(confusesAlgorithms(signer.publicPem, signer.verify));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(await signer.token()),
      options: { jwtPublicKeyFile: file },
    });
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 2 });
  });

  it('passes after the three key forms against a server that verifies RS256 only (jose)', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify, { jwks: { keys: [signer.publicJwk] } });
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'passed', requests: 4 });
  });

  it('is skipped when no public key can be found', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    // jwks.json and openid-configuration answer 401 here
    expectResult(outcome, ID, { status: 'skipped', reason: /no public key/, requests: 2 });
  });

  it('is skipped for an HMAC token', async () => {
    target = await startJwtTarget(verifiesHs256('x'.repeat(40)));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token('x'.repeat(40))) });
    expectResult(outcome, ID, { status: 'skipped', requests: 0 });
  });
});
