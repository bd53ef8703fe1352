import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../scanner/report/report-types.js';
import { reportProblems } from '../../scanner/report/validate-report.js';
import { swagger2Copy } from '../fixtures/openapi/swagger-2-copy.js';
import { startDemoTarget } from '../fixtures/targets/demo-api-target.js';
import { scanToReport, startTarget, type Target } from './support/run-cli.js';

const probeChecks = fileURLToPath(new URL('../fixtures/custom-checks/valid/', import.meta.url));

/** A Swagger 2.0 description in YAML: host and basePath, a form body from `consumes`, an API key in a header. */
const swagger = (host: string): string => `swagger: "2.0"
info: { title: Shop, version: "1" }
host: ${host}
basePath: /v2
schemes: [http]
consumes: [application/x-www-form-urlencoded]
securityDefinitions:
  key: { type: apiKey, in: header, name: X-Api-Key }
security: [{ key: [] }]
paths:
  /items/{itemId}:
    get:
      operationId: getItem
      parameters:
        - { name: itemId, in: path, required: true, type: string, x-example: lamp }
        - { name: fields, in: query, required: true, type: string, default: name }
      responses: { "200": { description: ok } }
  /orders:
    post:
      operationId: placeOrder
      parameters:
        - { name: item, in: formData, required: true, type: string, default: lamp }
        - { name: quantity, in: formData, type: integer, default: 2 }
      responses: { "201": { description: created } }
  /notes:
    post:
      consumes: [application/json]
      parameters:
        - { name: body, in: body, schema: { $ref: "#/definitions/Note" } }
      responses: { "201": { description: created } }
definitions:
  Note: { type: object, properties: { text: { type: string, example: hi } } }
`;

describe('scanner scan openapi on a Swagger 2.0 description', () => {
  let target: Target;
  let dir: string;
  const seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  before(async () => {
    target = await startTarget((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    dir = await mkdtemp(join(tmpdir(), 'scanner-swagger-'));
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('converts it before the scan: basePath, consumes and securityDefinitions reach the wire, and the report says so', async () => {
    const file = join(dir, 'shop.swagger.yaml');
    await writeFile(file, swagger(new URL(target.url).host));
    const result = await scanToReport([
      'scan',
      'openapi',
      file,
      '--checks-dir',
      probeChecks,
      '--scans',
      'custom.probe',
      '--security-schemes',
      'key=k-123',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.include(
      `note: ${file} is a Swagger 2.0 description, converted to OpenAPI 3 by @scalar/openapi-upgrader before the scan`,
    );
    expect(result.report.openapi?.convertedFrom).to.equal('Swagger 2.0 (converted by @scalar/openapi-upgrader)');
    expect(reportProblems(result.report)).to.deep.equal([]);
    const sent = seen.map((s) => [s.method, s.url, s.headers['x-api-key'], s.headers['content-type'] ?? '-', s.body]);
    expect(sent.sort()).to.deep.equal([
      ['GET', '/v2/items/test?fields=name', 'k-123', '-', ''],
      ['POST', '/v2/notes', 'k-123', 'application/json', '{"text":"hi"}'],
      ['POST', '/v2/orders', 'k-123', 'application/x-www-form-urlencoded', 'item=lamp&quantity=2'],
    ]);
  });
});

describe('a Swagger 2.0 copy of the vulnerable demo API’s description', function () {
  this.timeout(120_000);

  /** Failed issues above Info as `operation | check | issue`, without the per-origin header and rate-limit lines. */
  const findings = (report: Report): string[] =>
    report.reports
      .flatMap((item) =>
        item.issues
          .filter((issue) => issue.status === 'failed' && issue.cvss.score >= 0.1)
          .map((issue) => `${item.operation?.id} | ${item.id} | ${issue.id}`),
      )
      .filter((line) => !/\| (misconfiguration\.http_headers|resource\.rate_limit_absent) \|/.test(line))
      .sort();

  it('gives the same findings as the OpenAPI 3 description it was written from', async () => {
    const demo = await startDemoTarget();
    const dir = await mkdtemp(join(tmpdir(), 'scanner-swagger-demo-'));
    try {
      const openapi = (await (await fetch(demo.url('/openapi.json'))).json()) as Record<string, unknown>;
      const file = join(dir, 'demo.swagger.json');
      await writeFile(file, JSON.stringify(swagger2Copy(openapi)));
      const flags = ['--as-other', `Authorization: Bearer ${demo.tokens.bob}`, '--rate', '2000/s'];
      const fromOpenapi = await scanToReport([
        'scan',
        'openapi',
        demo.url('/openapi.json'),
        '--security-schemes',
        `bearer=${demo.tokens.alice}`,
        ...flags,
      ]);
      const fromSwagger = await scanToReport([
        'scan',
        'openapi',
        file,
        '--security-schemes',
        `bearer=Bearer ${demo.tokens.alice}`,
        ...flags,
      ]);
      expect(fromSwagger.report.openapi?.convertedFrom).to.equal('Swagger 2.0 (converted by @scalar/openapi-upgrader)');
      expect(findings(fromOpenapi.report)).to.include(
        'GET /api/admin/latency | injection.command | injection.os_command',
      );
      expect(findings(fromSwagger.report)).to.deep.equal(findings(fromOpenapi.report));
    } finally {
      await demo.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
