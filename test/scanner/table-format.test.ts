import { expect } from 'chai';
import type { CheckDefinition, Operation } from '../../scanner/api.js';
import { formatTable, adviceLine } from '../../scanner/formatters/table.js';
import { findingRows } from '../../scanner/report/findings.js';
import { riskLevel } from '../../scanner/report/risk.js';
import type { ScanOutcome, CheckResult } from '../../scanner/scan-result.js';

const issue = (id: string, score: number) => ({
  id,
  name: `${id} name`,
  cvss: { version: 4.0 as const, vector: 'CVSS:4.0/AV:N', score },
  classifications: { owasp: 'API8:2023 Security Misconfiguration' },
});
const op = (method: string, path: string): Operation => ({
  id: `${method} ${path}`,
  method,
  url: `http://h${path}`,
  path,
  headers: {},
  cookies: {},
  securitySchemes: [],
});

function outcome(
  findings: { op: Operation; issueId: string; score: number }[],
  attempts: CheckResult['attempts'] = [],
): ScanOutcome {
  const definition: CheckDefinition = {
    id: 't.check',
    name: 'T',
    issues: findings.map((f) => issue(f.issueId, f.score)),
    maxCvss: 10,
    async run() {},
  };
  const operations = [...new Map(findings.map((f) => [f.op.id, f.op])).values()];
  const now = new Date();
  return {
    kind: 'curl',
    startTime: now,
    endTime: now,
    requestsSent: 0,
    operations,
    checks: [{ definition, file: 't.check.ts', origin: 'custom' }],
    results: operations.map((o) => ({
      checkId: 't.check',
      operationId: o.id,
      status: 'failed',
      findings: findings.filter((f) => f.op.id === o.id).map((f) => ({ issueId: f.issueId })),
      attempts,
      startTime: now,
      endTime: now,
    })),
  };
}

describe('scanner table format', () => {
  it('bands risk levels without gaps at 4.0, 7.0 and 9.0', () => {
    expect([0, 0.1, 3.9, 4, 6.9, 7, 8.9, 9, 10].map(riskLevel)).to.deep.equal([
      'Info',
      'Low',
      'Low',
      'Medium',
      'Medium',
      'High',
      'High',
      'Critical',
      'Critical',
    ]);
  });

  it('sorts vulnerabilities by score descending, then operation', () => {
    const rows = findingRows(
      outcome([
        { op: op('GET', '/b'), issueId: 'x.low', score: 0 },
        { op: op('GET', '/b'), issueId: 'x.crit', score: 9.3 },
        { op: op('DELETE', '/a'), issueId: 'x.mid', score: 5.1 },
        { op: op('GET', '/a'), issueId: 'x.mid2', score: 5.1 },
      ]),
    );
    expect(rows.map((r) => [r.operation, r.score, r.risk])).to.deep.equal([
      ['GET /b', 9.3, 'Critical'],
      ['DELETE /a', 5.1, 'Medium'],
      ['GET /a', 5.1, 'Medium'],
      ['GET /b', 0, 'Info'],
    ]);
  });

  it('chooses the advice line from the findings', () => {
    expect(adviceLine([])).to.equal('Success: No issue detected!');
    expect(adviceLine(findingRows(outcome([{ op: op('GET', '/'), issueId: 'x.i', score: 0 }])))).to.equal(
      "Warning: There are some issues. It's advised to take action.",
    );
    expect(adviceLine(findingRows(outcome([{ op: op('GET', '/'), issueId: 'x.h', score: 7 }])))).to.equal(
      "Error: There are some high-risk issues. It's advised to take immediate action.",
    );
  });

  it('prints the advice, the fingerprint and the vulnerability list with the columns of the spec', () => {
    const attempts = [
      {
        id: 'a1',
        request: { method: 'GET', url: 'http://h/', headers: {} },
        response: {
          status: 200,
          headers: { server: 'Apache/2.4.29 (Ubuntu)', 'x-powered-by': 'PHP/7.4.3' },
          setCookies: [],
          body: '',
          durationMs: 1,
        },
      },
    ];
    const text = formatTable(outcome([{ op: op('GET', '/'), issueId: 'x.h', score: 8.8 }], attempts));
    const lines = text.split('\n');
    expect(lines[0]).to.equal("Error: There are some high-risk issues. It's advised to take immediate action.");
    expect(text).to.match(/│ TECHNOLOGIE\/SERVICE │ VALUE\s+│/);
    expect(text).to.match(/│ Language\s+│ PHP:7\.4\.3\s+│/);
    expect(text).to.match(/│ Server\s+│ Apache HTTP Server:2\.4\.29 │/);
    expect(text).to.match(/│ OPERATION │ RISK LEVEL │ CVSS 4\.0 SCORE │ OWASP\s+│ VULNERABILITY\s+│/);
    expect(text).to.match(/│ GET \/\s+│ High\s+│ 8\.8\s+│ API8:2023 Security Misconfiguration │ x\.h name\s+│/);
    expect(text).to.not.include('WELL-KNOWN PATHS');
  });

  it('prints the well-known paths table with N/A when the discover checks found nothing', () => {
    const base = outcome([{ op: op('GET', '/'), issueId: 'x.i', score: 0 }]);
    const now = new Date();
    const discover = ['discover.discoverable_openapi', 'discover.graphql'].map((checkId) => ({
      checkId,
      operationId: 'GET /',
      status: 'passed' as const,
      findings: [],
      attempts: [],
      startTime: now,
      endTime: now,
    }));
    const text = formatTable({ ...base, results: [...base.results, ...discover] });
    expect(text).to.match(/│ WELL-KNOWN PATHS │ URL │/);
    expect(text).to.match(/│ OpenAPI\s+│ N\/A │/);
    expect(text).to.match(/│ GraphQL\s+│ N\/A │/);
  });
});
