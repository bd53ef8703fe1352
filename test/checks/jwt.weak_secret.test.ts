import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { resultOf, scanTarget } from '../support/scan.js';
import { hs256Token, rs256Signer, startJwtTarget, verifiesHs256 } from '../fixtures/targets/jwt-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer, expectResult } from './expect-result.js';

const ID = 'jwt.weak_secret';
const ISSUE = { 'broken_authentication.weak_secret': 9.3 };

describe('jwt.weak_secret', () => {
  let target: Target | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await target?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('fails offline (no request) when the secret is a framework default of the built-in list, and never prints it', async () => {
    target = await startJwtTarget(verifiesHs256('keyboard cat'));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token('keyboard cat')) });
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 0 });
    expect(resultOf(outcome, ID).findings[0].detail)
      .to.match(/built-in list entry \d+/)
      .and.not.include('keyboard cat');
  });

  it('finds a secret whose token header has a kid and no typ (VulnAPI re-encoded the header and missed it)', async () => {
    const secret = 'changeme';
    const token = hs256Token(secret, { sub: 'u', exp: 4102444800 }, { kid: 'key-2024', typ: undefined });
    target = await startJwtTarget(verifiesHs256(secret));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(token) });
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 0 });
  });

  it('reads --jwt-secrets-file (ctx.options.jwtSecretsFile) and names the line where the secret is', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-secrets-'));
    const file = join(dir, 'secrets.txt');
    writeFileSync(file, ['', 'alpha', 'bravo', 'our-company-2026!', 'delta'].join('\n'));
    target = await startJwtTarget(verifiesHs256('our-company-2026!'));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token('our-company-2026!')),
      options: { jwtSecretsFile: file },
    });
    expectResult(outcome, ID, { status: 'failed', issues: ISSUE, requests: 0 });
    expect(resultOf(outcome, ID).findings[0].detail).to.include(`${file} line 4`);
  });

  it('errors, never passes, when the secrets file cannot be read', async () => {
    const secret = 'Zq9!vR2#kLm8@pW4$xN7^tB3&yH6*jD1';
    target = await startJwtTarget(verifiesHs256(secret));
    const outcome = await scanTarget(target.url('/me'), {
      checks: [ID],
      headers: bearer(hs256Token(secret)),
      options: { jwtSecretsFile: join(tmpdir(), 'gatehouse-no-such-secrets-file.txt') },
    });
    expectResult(outcome, ID, { status: 'errored', reason: /ENOENT/, requests: 0 });
  });

  it('passes when a strong random secret is in no list', async () => {
    const secret = 'Zq9!vR2#kLm8@pW4$xN7^tB3&yH6*jD1';
    target = await startJwtTarget(verifiesHs256(secret));
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(hs256Token(secret)) });
    expectResult(outcome, ID, { status: 'passed', requests: 0 });
  });

  it('is skipped for an RS256 token (only HMAC secrets can be guessed)', async () => {
    const signer = await rs256Signer();
    target = await startJwtTarget(signer.verify);
    const outcome = await scanTarget(target.url('/me'), { checks: [ID], headers: bearer(await signer.token()) });
    expectResult(outcome, ID, { status: 'skipped', reason: /HS256/, requests: 0 });
  });
});
