import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startTarget, type CliRun, type Target } from './support/run-cli.js';

function expectOneLine(result: CliRun, pattern: RegExp): void {
  expect(result.code).to.equal(1);
  expect(result.stdout).to.equal('');
  expect(result.stderr.split('\n'), result.stderr).to.have.length(2); // one line and its newline
  expect(result.stderr).to.match(pattern);
}

const operation = { get: { responses: { '200': { description: 'ok' } } } };

describe('scanner scan openapi refuses unusable descriptions with one line and exit 1, before any request', () => {
  let target: Target;
  let dir: string;
  before(async () => {
    target = await startTarget();
    dir = await mkdtemp(join(tmpdir(), 'scanner-openapi-inputs-'));
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  const scanFile = async (name: string, content: unknown, ...flags: string[]): Promise<CliRun> => {
    const file = join(dir, name);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    const before = target.requests;
    const result = await runCli(['scan', 'openapi', file, ...flags]);
    expect(target.requests, 'requests sent').to.equal(before);
    return result;
  };

  it('refuses a document that is not OpenAPI', async () => {
    expectOneLine(
      await scanFile('package.json', { name: 'x', version: '1.0.0' }, '--base-url', target.url),
      /package\.json: not an OpenAPI 3 description \(no "openapi: 3\.x" field\)\n$/,
    );
    expectOneLine(
      await scanFile('notes.txt', 'key: [unclosed', '--base-url', target.url),
      /notes\.txt: neither JSON nor YAML/,
    );
  });

  it('refuses a Swagger 1.x description (Swagger 2.0 is converted: test/scanner/swagger-2.test.ts)', async () => {
    const swagger = { swaggerVersion: '1.2', swagger: '1.2', apis: [] };
    expectOneLine(
      await scanFile('swagger.json', swagger, '--base-url', target.url),
      /swagger\.json: a Swagger 1\.2 description; only Swagger 2\.0 and OpenAPI 3\.x are scanned\n$/,
    );
  });

  it('refuses a YAML description whose aliases expand exponentially, at once and naming the limit', async () => {
    const levels = 'abcdefghi'.split('');
    const lines = levels.map((name, i) =>
      i === 0
        ? `  ${name}: &${name} [${Array(9).fill('"lol"').join(', ')}]`
        : `  ${name}: &${name} [${Array(9)
            .fill(`*${levels[i - 1]}`)
            .join(', ')}]`,
    );
    const bomb = `openapi: 3.0.0\ninfo: { title: t, version: "1" }\npaths: { /ok: { get: { responses: { "200": { description: ok } } } } }\nx-bomb:\n${lines.join('\n')}\n`;
    const started = Date.now();
    expectOneLine(
      await scanFile('bomb.yaml', bomb, '--base-url', target.url),
      /bomb\.yaml: expands to more than 5,000,000 values \(YAML aliases that multiply\); refused\n$/,
    );
    expect(Date.now() - started, 'refused before walking it (it was busy until killed)').to.be.below(10_000);
    const many = `openapi: 3.0.0\ninfo: { title: t, version: "1" }\nx-a: &a 1\nx-list: [${Array(10_001).fill('*a').join(', ')}]\npaths: { /ok: { get: { responses: { "200": { description: ok } } } } }\n`;
    expectOneLine(
      await scanFile('aliases.yaml', many, '--base-url', target.url),
      /aliases\.yaml: more than 10000 YAML aliases; refused/,
    );
  });

  it('refuses a description larger than 64 MiB before parsing it', async () => {
    const big = `{"openapi": "3.0.0", "x-pad": "${'x'.repeat(64 * 1024 * 1024)}", "paths": {}}`;
    expectOneLine(
      await scanFile('big.json', big, '--base-url', target.url),
      /big\.json: larger than the 64 MiB a description may be \(64 MiB\); refused before parsing\n$/,
    );
  });

  it('refuses a description without operations', async () => {
    expectOneLine(
      await scanFile(
        'no-paths.yaml',
        'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\n',
        '--base-url',
        target.url,
      ),
      /no-paths\.yaml: has no paths to scan\n$/,
    );
    const onlyParameters = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/a': { parameters: [], summary: 'nothing' } },
    };
    expectOneLine(
      await scanFile('no-operations.json', onlyParameters, '--base-url', target.url),
      /no-operations\.json: has no operations to scan\n$/,
    );
  });

  it('refuses a $ref that cannot be resolved, naming it and where it is', async () => {
    const broken = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          get: {
            parameters: [{ $ref: '#/components/parameters/missing' }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    expectOneLine(
      await scanFile('broken-ref.json', broken, '--base-url', target.url),
      /broken-ref\.json: \$ref "#\/components\/parameters\/missing" at #\/paths\/~1a\/get\/parameters\/0 cannot be resolved\n$/,
    );
    const external = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { $ref: 'other.yaml#/a' } },
    };
    expectOneLine(
      await scanFile('external-ref.json', external, '--base-url', target.url),
      /\$ref "other\.yaml#\/a" at #\/paths\/~1a is external; only references inside the description are resolved\n$/,
    );
  });

  it('refuses a description with no usable base URL unless --base-url is given', async () => {
    const relative = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      servers: [{ url: '/v1' }],
      paths: { '/ok': operation },
    };
    expectOneLine(
      await scanFile('relative.json', relative),
      /relative\.json: servers\[0\]\.url "\/v1" is not absolute; give --base-url\n$/,
    );
    const none = { openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/ok': operation } };
    expectOneLine(
      await scanFile('no-servers.json', none),
      /no-servers\.json: no servers\[0\]\.url; give --base-url\n$/,
    );
  });
});
