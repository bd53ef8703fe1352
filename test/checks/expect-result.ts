/** Assertions shared by the check tests: a check's verdict, the issues it reported with their scores, its requests. */
import { expect } from 'chai';
import type { ScanOutcome } from '../../scanner/scan-result.js';
import { requestsOf, resultOf } from '../support/scan.js';

export interface Expected {
  status: 'passed' | 'failed' | 'skipped' | 'errored';
  /** Issue id → CVSS score, for every finding (order-insensitive). */
  issues?: Record<string, number>;
  requests?: number;
  reason?: RegExp;
}

export function expectResult(outcome: ScanOutcome, checkId: string, expected: Expected): void {
  const result = resultOf(outcome, checkId);
  const why = result.reason ? ` (${result.reason})` : '';
  expect(result.status, `${checkId} status${why}`).to.equal(expected.status);
  const definition = outcome.checks.find((c) => c.definition.id === checkId)!.definition;
  const reported = Object.fromEntries(
    result.findings.map((f) => [
      f.issueId,
      f.cvss?.score ?? definition.issues.find((i) => i.id === f.issueId)!.cvss.score,
    ]),
  );
  expect(reported, `${checkId} findings`).to.deep.equal(expected.issues ?? {});
  expect(result.findings.length, `${checkId}: one finding per issue`).to.equal(Object.keys(reported).length);
  if (expected.requests !== undefined)
    expect(requestsOf(outcome, checkId), `${checkId} requests sent`).to.equal(expected.requests);
  if (expected.reason) expect(result.reason).to.match(expected.reason);
}

export const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });
