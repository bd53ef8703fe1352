/**
 * `scanner scan graphql` of the vulnerable GraphQL demo at defaults (alice's token, bob as the second identity) finds
 * exactly what the demo plants, each finding naming its field (the JWT attacks on `session(token:)` with their session
 * JWTs); the secure twin (scanned with its schema as --schema: its introspection is off) gets nothing at 4.0 or
 * above; and the scan harms nothing: the demo's data afterwards is its data before plus only objects of the scan's
 * own identity.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Report } from '../../../scanner/report/report-types.js';
import { reportProblems } from '../../../scanner/report/validate-report.js';
import { startGraphqlDemo, type GraphqlDemoTarget } from '../../fixtures/targets/graphql-demo-target.js';
import { scanToReport } from '../../scanner/support/run-cli.js';

/** Every planted weakness above Info as `operation | check | issue`. */
const PLANTED = [
  'POST /graphql | graphql.alias_overloading | graphql.alias_overloading',
  'POST /graphql | graphql.batching | graphql.batching',
  'POST /graphql | graphql.circular_fragments | graphql.circular_fragments',
  'POST /graphql | graphql.depth_limit | graphql.depth_limit',
  'POST /graphql | graphql.field_duplication | graphql.field_duplication',
  'POST /graphql | graphql.field_suggestions | graphql.field_suggestions',
  'POST /graphql | graphql.form_post | graphql.form_post',
  'POST /graphql | graphql.get_mutation | graphql.get_mutation',
  'POST /graphql | graphql.ide_exposed | graphql.ide_exposed',
  'POST /graphql | graphql.introspection_bypass | graphql.introspection_bypass',
  'POST /graphql | resource.rate_limit_absent | resource_consumption.rate_limit_absent',
  'POST /graphql mutation.checkStatusPage | ssrf.url_parameter | server_side_request_forgery.url_parameter',
  'POST /graphql mutation.importFromUrl | ssrf.url_parameter | server_side_request_forgery.url_parameter',
  'POST /graphql mutation.login | authentication.weak_credentials | broken_authentication.weak_credentials',
  'POST /graphql mutation.login | resource.rate_limit_absent | resource_consumption.rate_limit_absent',
  'POST /graphql mutation.pingHost | injection.command | injection.os_command',
  'POST /graphql query.adminStats | bfla.admin_operation | broken_function_level_authorization.admin_operation',
  'POST /graphql query.helpDocument | injection.path_traversal | injection.path_traversal',
  'POST /graphql query.helpDocument | misconfiguration.verbose_errors | security_misconfiguration.stack_trace_exposed',
  'POST /graphql query.me | bopla.excessive_data_exposure | broken_object_property_level_authorization.sensitive_data_exposure',
  'POST /graphql query.order | bola.read | broken_object_level_authorization.read',
  'POST /graphql query.products | injection.sql | injection.sql_error_based',
  'POST /graphql query.products | misconfiguration.verbose_errors | security_misconfiguration.database_error_exposed',
  'POST /graphql query.products | misconfiguration.verbose_errors | security_misconfiguration.stack_trace_exposed',
  'POST /graphql query.systemDiagnostics | graphql.denylist_bypass | graphql.denylist_bypass',
  'POST /graphql query.users | bopla.excessive_data_exposure | broken_object_property_level_authorization.sensitive_data_exposure',
];

/** The vulnerable twin sends no security headers (on purpose); the secure twin's test shows them present. */
const HEADERS = 'misconfiguration.http_headers';

function failed(report: Report, minimum: number): string[] {
  return report.reports
    .flatMap((item) =>
      item.issues
        .filter((issue) => issue.status === 'failed' && issue.cvss.score >= minimum)
        .map((issue) => `${item.operation?.id} | ${item.id} | ${issue.id}`),
    )
    .sort();
}

/** Scans as alice with bob as the second identity: their opaque tokens, or with `sessions` their session JWTs. */
async function scanDemo(target: GraphqlDemoTarget, extra: string[] = [], sessions = false): Promise<Report> {
  const { report, ...run } = await scanToReport([
    'scan',
    'graphql',
    target.url,
    '-H',
    `Authorization: Bearer ${sessions ? target.tokens.aliceSession : target.tokens.alice}`,
    '--as-other',
    `Authorization: Bearer ${sessions ? target.tokens.bobSession : target.tokens.bob}`,
    '--rate',
    '2000/s',
    ...extra,
  ]);
  expect(run.code, run.stderr).to.equal(0);
  expect(reportProblems(report)).to.deep.equal([]);
  return report;
}

describe('npm run demo:vulnerable-graphql, scanned with scan graphql', function () {
  this.timeout(60_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('finds exactly the planted weaknesses on the vulnerable twin, each naming its field', async () => {
    target = await startGraphqlDemo();
    const report = await scanDemo(target);
    expect(failed(report, 0.1).filter((line) => !line.includes(`| ${HEADERS} |`))).to.deep.equal([...PLANTED].sort());
    expect(report.graphql?.schemaSource).to.equal('introspection bypass: sacrificial-field');
    expect(report.graphql?.queries.order.issues.map((i) => i.id)).to.include('broken_object_level_authorization.read');
    expect(report.graphql?.mutations.deleteAllNotes.class).to.equal('destructive');
  });

  it('finds nothing at 4.0 or above on the secure twin', async () => {
    target = await startGraphqlDemo({ secure: true });
    const dir = await mkdtemp(join(tmpdir(), 'gq-demo-'));
    try {
      await writeFile(join(dir, 'schema.graphql'), target.demo.sdl);
      const report = await scanDemo(target, ['--schema', join(dir, 'schema.graphql')]);
      expect(report.graphql?.schemaSource).to.equal('file');
      expect(Object.keys(report.graphql?.queries ?? {})).to.have.length(10);
      expect(Object.keys(report.graphql?.mutations ?? {})).to.have.length(6);
      expect(failed(report, 4.0)).to.deep.equal([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('scanned with session JWTs, also finds the unsigned token session(token:) believes, attacked where it reads it', async () => {
    target = await startGraphqlDemo();
    const report = await scanDemo(target, [], true);
    // The header JWT is verified strictly on every field: the argument is the only place the attack succeeds.
    expect(failed(report, 0.1).filter((line) => !line.includes(`| ${HEADERS} |`))).to.deep.equal(
      [...PLANTED, 'POST /graphql query.session | jwt.alg_none | broken_authentication.alg_none'].sort(),
    );
    const session = report.reports.find(
      (r) => r.id === 'jwt.alg_none' && r.operation?.id === 'POST /graphql query.session',
    );
    // The unsigned token went in the argument; accepted, it works as a credential and is redacted like one.
    expect(session!.scans[0].request!.body).to.include('"variables":{"token":"[redacted]"}');
    expect(session!.issues.find((i) => i.status === 'failed')?.details?.join(' ')).to.match(/alg "none"/);
    expect(JSON.stringify(report), 'the supplied token, in headers and arguments alike').to.not.include(
      target.tokens.aliceSession,
    );
  });

  it('scanned with session JWTs, gets nothing from the secure twin, whose session(token:) verifies the signature', async () => {
    target = await startGraphqlDemo({ secure: true });
    const dir = await mkdtemp(join(tmpdir(), 'gq-demo-'));
    try {
      await writeFile(join(dir, 'schema.graphql'), target.demo.sdl);
      const report = await scanDemo(target, ['--schema', join(dir, 'schema.graphql')], true);
      expect(failed(report, 4.0)).to.deep.equal([]);
      const session = report.reports.find(
        (r) => r.id === 'jwt.alg_none' && r.operation?.id === 'POST /graphql query.session',
      );
      expect(session?.status).to.equal('passed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('harms nothing: afterwards the data is what it was, plus notes and imports of the scan identity only', async () => {
    target = await startGraphqlDemo();
    const before = target.demo.dump();
    await scanDemo(target);
    const after = target.demo.dump();
    for (const [table, rows] of Object.entries(before)) {
      const kept = after[table].slice(0, rows.length);
      expect(kept, `${table}: existing rows unchanged`).to.deep.equal(rows);
      const added = after[table].slice(rows.length) as { userId?: string }[];
      expect(
        added.filter((row) => row.userId !== 'u1'),
        `${table}: rows the scan added belong to alice`,
      ).to.deep.equal([]);
    }
    expect(target.demo.store.notes.length, 'deleteAllNotes was never sent').to.be.greaterThan(0);
  });
});
