import { expect } from 'chai';
import { buildReport } from '../../scanner/report/build-report.js';
import { findingRows } from '../../scanner/report/findings.js';
import { assertValidReport } from '../../scanner/report/validate-report.js';
import { formatSarif } from '../../scanner/formatters/sarif.js';
import { scanTarget } from '../support/scan.js';
import { hs256Token, startJwtTarget } from '../fixtures/targets/jwt-target.js';
import { verifiesClaims } from '../fixtures/targets/jwt-claims-target.js';
import type { Target } from '../fixtures/targets/start-target.js';
import { bearer } from '../checks/expect-result.js';

const WEAK = 'supersecret'; // in the built-in dictionary
const STRONG = 'a-strong-secret-0123456789abcdef0123456789abcdef';
const claims = (): Record<string, unknown> => ({
  sub: 'user-1',
  iss: 'https://a.example.com/',
  aud: 'orders-api',
  exp: Math.floor(Date.now() / 1000) + 3600,
});
const LINKED = [
  'broken_authentication.issuer_not_validated',
  'broken_authentication.audience_not_validated',
  'broken_authentication.expired_token_accepted',
];

describe('root causes: one recovered key, one scored finding', () => {
  let target: Target | undefined;
  afterEach(async () => target?.close());

  it('scores only jwt.weak_secret on a weak-secret API that checks no claim; iss, aud and exp findings link to it', async () => {
    // The API checks the signature and nothing else: every claim-variant token re-signed with the cracked secret passes.
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: false }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: ['jwt.*'],
      headers: bearer(hs256Token(WEAK, claims())),
    });

    const rows = findingRows(outcome);
    const scored = rows.filter((r) => r.score > 0);
    expect(scored.map((r) => `${r.issueId} ${r.score}`)).to.deep.equal(['broken_authentication.weak_secret 9.3']);
    const linked = rows.filter((r) => r.linkedTo !== undefined);
    expect(linked.map((r) => r.issueId).sort()).to.deep.equal([...LINKED].sort());
    for (const row of linked)
      expect(row, row.issueId).to.include({ score: 0, risk: 'Info', linkedTo: 'jwt.weak_secret' });

    const report = buildReport(outcome, {});
    assertValidReport(report, 'root-cause report');
    const issues = report.reports.flatMap((r) => r.issues).filter((i) => LINKED.includes(i.id));
    expect(issues).to.have.length(3);
    for (const issue of issues) {
      expect(issue.status, issue.id).to.equal('failed');
      expect(issue.cvss.score, issue.id).to.equal(0);
      expect(issue.evidence?.cause, issue.id).to.deep.equal({
        check: 'jwt.weak_secret',
        issue: 'broken_authentication.weak_secret',
      });
      expect(issue.evidence?.originalCvss?.score, issue.id).to.be.above(7);
    }
    const sarif = JSON.parse(formatSarif(outcome)) as {
      runs: { results: { ruleId: string; level: string; properties: { cause?: string } }[] }[];
    };
    const linkedResults = sarif.runs[0].results.filter((r) => LINKED.includes(r.ruleId));
    expect(linkedResults.map((r) => [r.level, r.properties.cause])).to.deep.equal(
      linkedResults.map(() => ['note', 'jwt.weak_secret']),
    );
  });

  it('keeps the claim finding scored when the key was not recovered in this scan (jwt.weak_secret not selected)', async () => {
    target = await startJwtTarget(verifiesClaims({ secrets: [WEAK], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: ['jwt.issuer_not_validated'],
      headers: bearer(hs256Token(WEAK, claims())),
    });
    expect(findingRows(outcome).map((r) => `${r.issueId} ${r.score}`)).to.deep.equal([
      'broken_authentication.issuer_not_validated 9.1',
    ]);
  });

  it('scores a claim finding proved with a real token of another issuer: it does not follow from a recovered key', async () => {
    const other = 'tenant-b-secret-0123456789abcdef0123456789';
    target = await startJwtTarget(verifiesClaims({ secrets: [STRONG, other], checkExp: true }));
    const outcome = await scanTarget(target.url('/me'), {
      checks: ['jwt.weak_secret', 'jwt.issuer_not_validated'],
      headers: bearer(hs256Token(STRONG, claims())),
      options: { otherIssuerToken: hs256Token(other, { ...claims(), iss: 'https://b.example.com/' }) },
    });
    expect(findingRows(outcome).map((r) => `${r.issueId} ${r.score}`)).to.deep.equal([
      'broken_authentication.issuer_not_validated 9.1',
    ]);
  });
});
