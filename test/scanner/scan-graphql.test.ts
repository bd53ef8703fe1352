import { expect } from 'chai';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { startGraphqlDemo } from '../fixtures/targets/graphql-demo-target.js';
import { runCli, startTarget, type Target } from './support/run-cli.js';

describe('scanner scan graphql', () => {
  let target: Target;
  before(async () => {
    target = await startTarget((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const introspection = body.includes('__schema') || (req.url ?? '').includes('__schema');
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(
            introspection ? '{"data":{"__schema":{"queryType":{"name":"Query"}}}}' : '{"data":{"__typename":"Query"}}',
          );
      });
    });
  });
  after(() => target.close());

  it('finds introspection enabled and writes a graphql section', async () => {
    const result = await runCli([
      'scan',
      'graphql',
      `${target.url}/graphql`,
      '--scans',
      'graphql.introspection_enabled',
      '--report-format',
      'json',
    ]);
    expect(result.code).to.equal(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(reportProblems(report)).to.deep.equal([]);
    expect(report.graphql).to.deep.equal({
      url: `${target.url}/graphql`,
      schemaSource: 'none',
      queries: {},
      mutations: {},
    });
    expect(report.reports.map((r) => [r.id, r.status, r.operation?.id])).to.deep.equal([
      ['graphql.introspection_enabled', 'failed', 'POST /graphql'],
    ]);
  });

  it("names the field of each finding in the table and in the report's graphql section", async () => {
    const demo = await startGraphqlDemo();
    try {
      const args = [
        'scan',
        'graphql',
        demo.url,
        '-H',
        `Authorization: Bearer ${demo.tokens.alice}`,
        '--scans',
        'bfla.*',
      ];
      const table = await runCli([...args, '--no-progress']);
      expect(table.stdout).to.match(/│ POST \/graphql query\.adminStats +│ High/);
      const json = await runCli([...args, '--report-format', 'json']);
      const report = JSON.parse(json.stdout) as Report;
      expect(reportProblems(report)).to.deep.equal([]);
      expect(report.graphql?.queries.adminStats).to.deep.include({ operationId: 'query.adminStats', class: 'read' });
      expect(report.graphql?.queries.adminStats.issues.map((i) => i.id)).to.deep.equal([
        'broken_function_level_authorization.admin_operation',
      ]);
    } finally {
      await demo.close();
    }
  });
});
