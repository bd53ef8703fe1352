import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import { validatorFor } from '../../lib/json-schema.js';
import { fromRoot } from '../../lib/project-root.js';
import { reportProblems } from '../../scanner/report/validate-report.js';

const base = 'https://gatehouse.dev/schemas/report/2024-10/';

/** A minimal valid report with one check result, to mutate. */
function report(): Record<string, unknown> {
  return {
    options: {},
    reports: [
      {
        id: 'jwt.alg_none',
        name: 'JWT None Algorithm',
        startTime: '2026-01-01T00:00:00.000Z',
        status: 'passed',
        scans: [
          {
            id: 'a1',
            request: { id: 'a1', method: 'GET', url: 'http://h/', headers: { 'User-Agent': 'x' } },
            response: { statusCode: 401, headers: { server: 'x' } },
          },
        ],
        issues: [
          {
            id: 'broken_authentication.alg_none',
            name: 'JWT Algorithm None is accepted',
            cvss: { version: 4, score: 9.3 },
            status: 'passed',
            scans: [{ id: 'a1', status: 'passed' }],
          },
        ],
      },
    ],
    curl: {
      method: 'GET',
      url: 'http://h/',
      securitySchemes: [{ type: 'none', scheme: 'None', tokenFormat: 'none', name: 'no_auth' }],
      issues: [],
    },
  };
}

function set(target: unknown, path: (string | number)[], value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
}

describe('scanner report schemas (revision 2024-10)', () => {
  it('compiles every schema in schemas/report', () => {
    const files = readdirSync(fromRoot('schemas', 'report')).filter((f) => f.endsWith('.schema.json'));
    expect(files.sort()).to.deep.equal([
      'curl-report.schema.json',
      'graphql-report.schema.json',
      'issue-report.schema.json',
      'openapi-report.schema.json',
      'operation-report.schema.json',
      'report.schema.json',
      'scan-report.schema.json',
      'security-scheme-report.schema.json',
    ]);
    for (const file of files) expect(() => validatorFor(`${base}${file}`), file).to.not.throw();
  });

  it('accepts a minimal report', () => {
    expect(reportProblems(report())).to.deep.equal([]);
  });

  // Each of VulnAPI's known deviations (docs/architecture.md §R.18) is refused by our schema, so we cannot emit it.
  const deviations: [string, (string | number)[], unknown, string][] = [
    ['an issue status of none', ['reports', 0, 'issues', 0, 'status'], 'none', 'reports[0].issues[0].status'],
    [
      'header values as arrays',
      ['reports', 0, 'scans', 0, 'request', 'headers'],
      { 'User-Agent': ['x'] },
      'reports[0].scans[0].request.headers.User-Agent',
    ],
    ['a security scheme with in: null', ['curl', 'securitySchemes', 0, 'in'], null, 'curl.securitySchemes[0].in'],
    ['an error without a message', ['reports', 0, 'scans', 0, 'error'], {}, 'reports[0].scans[0].error.message'],
    ['curl data as a bare string', ['curl', 'data'], 'a=1', 'curl.data'],
    [
      'capitalised cookie keys',
      ['reports', 0, 'scans', 0, 'response', 'cookies'],
      [{ Name: 'a', Value: 'b' }],
      'reports[0].scans[0].response.cookies[0]',
    ],
  ];
  for (const [what, at, value, path] of deviations) {
    it(`refuses ${what}`, () => {
      const r = report();
      set(r, at, value);
      expect(reportProblems(r).join('\n')).to.include(path);
    });
  }
});
