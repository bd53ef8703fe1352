import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startGraphqlDemo, type GraphqlDemoTarget } from '../../fixtures/targets/graphql-demo-target.js';
import { scanToReport } from '../support/run-cli.js';

function description(origin: string): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 'shop', version: '1' },
    servers: [{ url: origin }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths: {
      '/health': { get: { operationId: 'health', security: [], responses: { '200': { description: 'ok' } } } },
      '/graphql': {
        post: {
          operationId: 'graphql',
          requestBody: {
            content: { 'application/json': { schema: { type: 'object', properties: { query: { type: 'string' } } } } },
          },
          responses: { '200': { description: 'a GraphQL answer' } },
        },
      },
    },
  };
}

describe('scan openapi with a GraphQL endpoint in the description', function () {
  this.timeout(60_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('reads the endpoint schema and scans each field, listed in the report as scan graphql lists them', async () => {
    target = await startGraphqlDemo();
    const dir = await mkdtemp(join(tmpdir(), 'gq-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(description(new URL(target.url).origin)));
      const { report, ...run } = await scanToReport([
        'scan',
        'openapi',
        file,
        '--security-schemes',
        `bearer=${target.tokens.alice}`,
        '--scans',
        'bfla.*',
        '--scans',
        'injection.sql',
      ]);
      expect(run.code, run.stderr).to.equal(0);
      expect(Object.keys(report.openapi!.paths).sort()).to.deep.equal(['/graphql', '/health']);
      expect(report.graphql?.schemaSource).to.equal('introspection bypass: sacrificial-field');
      const failed = report.reports.flatMap((r) =>
        r.issues.filter((i) => i.status === 'failed').map((i) => `${r.operation?.id} | ${i.id}`),
      );
      expect(failed.sort()).to.deep.equal([
        'POST /graphql query.adminStats | broken_function_level_authorization.admin_operation',
        'POST /graphql query.products | injection.sql_error_based',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs GraphQL's own checks once on the endpoint (and per field), with no row for the REST operations", async () => {
    target = await startGraphqlDemo();
    const dir = await mkdtemp(join(tmpdir(), 'gq-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(description(new URL(target.url).origin)));
      const { report, ...run } = await scanToReport([
        'scan',
        'openapi',
        file,
        '--security-schemes',
        `bearer=${target.tokens.alice}`,
        '--scans',
        'graphql.*',
        '--rate',
        '2000/s',
      ]);
      expect(run.code, run.stderr).to.equal(0);
      const rows = report.reports.map((r) => `${r.operation?.id} | ${r.id}`);
      expect(
        rows.filter((row) => row.startsWith('GET /health')),
        'no row on a REST operation',
      ).to.deep.equal([]);
      const failed = report.reports.flatMap((r) =>
        r.issues.filter((i) => i.status === 'failed').map((i) => `${r.operation?.id} | ${i.id}`),
      );
      expect(failed.sort()).to.deep.equal([
        'POST /graphql query.systemDiagnostics | graphql.denylist_bypass',
        'POST /graphql | graphql.alias_overloading',
        'POST /graphql | graphql.batching',
        'POST /graphql | graphql.circular_fragments',
        'POST /graphql | graphql.depth_limit',
        'POST /graphql | graphql.field_duplication',
        'POST /graphql | graphql.field_suggestions',
        'POST /graphql | graphql.form_post',
        'POST /graphql | graphql.get_mutation',
        'POST /graphql | graphql.ide_exposed',
        'POST /graphql | graphql.introspection_bypass',
      ]);
      const endpointRows = rows.filter((row) => row.startsWith('POST /graphql |'));
      expect(endpointRows, 'each endpoint check once').to.have.length(new Set(endpointRows).size);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
