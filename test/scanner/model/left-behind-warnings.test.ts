import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftBehindWarnings } from '../../../scanner/model/left-behind-warnings.js';
import type { ModelOutcome } from '../../../scanner/model/model-outcome.js';
import { bearerOf, json, startTarget, type Target } from '../../fixtures/targets/start-target.js';
import { scanToReport } from '../support/run-cli.js';

type Created = ModelOutcome['created'][number];
const object = (n: number, extra: Partial<Created> = {}): Created => ({
  resource: 'items',
  operation: 'POST /items',
  creator: 'first',
  keys: { id: `i${n}` },
  url: `http://127.0.0.1:9/items/i${n}`,
  state: 'left',
  reason: 'DELETE answered 403',
  ...extra,
});

describe('leftBehindWarnings (what the scan changed and could not undo)', () => {
  it('says nothing when everything created was deleted and every record set back', () => {
    expect(
      leftBehindWarnings({
        created: [object(1, { state: 'deleted' })],
        ownRestores: [{ identity: 'first', operation: 'PATCH /me', fields: ['name'], restored: true }],
      }),
    ).to.deep.equal([]);
  });

  it('names the first objects left behind, counts the rest, and asks to delete them by hand', () => {
    const [line] = leftBehindWarnings({ created: [1, 2, 3, 4, 5].map((n) => object(n)), ownRestores: [] });
    expect(line).to.equal(
      "the scan could not delete 5 objects it created: items http://127.0.0.1:9/items/i1 (DELETE answered 403); items http://127.0.0.1:9/items/i2 (DELETE answered 403); items http://127.0.0.1:9/items/i3 (DELETE answered 403), and 2 more — delete them by hand (the report's completeness.leftBehind lists every one)",
    );
  });

  it('gives the value to set a field back to, unless a later restore of the same identity set it back', () => {
    const chain = {
      identity: 'first',
      operation: 'PUT /users/{username}/role',
      fields: ['role'],
      status: 500,
      restored: false,
      was: { role: '"customer"' },
    };
    expect(leftBehindWarnings({ created: [], ownRestores: [chain] })).to.deep.equal([
      `first's role could not be set back through PUT /users/{username}/role (500): set role to "customer" by hand (the report's completeness.restoredRecords)`,
    ]);
    const mended = { identity: 'first', operation: 'PATCH /me', fields: ['role'], status: 200, restored: true };
    expect(leftBehindWarnings({ created: [], ownRestores: [chain, mended] })).to.deep.equal([]);
  });
});

describe('scan openapi of an API that refuses to delete what the scan created', function () {
  this.timeout(60_000);
  let target: Target;
  let dir: string;
  let made = 0;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'left-behind-'));
    target = await startTarget((req, res) => {
      if (bearerOf(req) !== 'alice-token') return json(res, 401, { error: 'unauthorized' });
      const item = /^\/items\/(\w+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname)?.[1];
      if (req.method === 'POST' && !item) return json(res, 201, { id: `i${(made += 1)}`, name: 'x' });
      if (req.method === 'GET' && item) return json(res, 200, { id: item, name: 'x' });
      if (req.method === 'DELETE' && item) return json(res, 403, { error: 'deleting is for staff' });
      return json(res, 404, { error: 'not found' });
    });
  });
  after(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('warns on stderr, whatever the report format, and lists every object in the report', async () => {
    const spec = join(dir, 'items.json');
    const ok = { '200': { description: 'ok' } };
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'items', version: '1' },
        security: [{ bearer: [] }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        paths: {
          '/items': {
            post: {
              requestBody: {
                content: {
                  'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
                },
              },
              responses: { '201': { description: 'created' } },
            },
          },
          '/items/{id}': {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
            get: { responses: ok },
            delete: { responses: ok },
          },
        },
      }),
    );
    const { report, stderr } = await scanToReport([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target.url(''),
      '--security-schemes',
      'bearer=alice-token',
      '--rate',
      '2000/s',
    ]);
    const left = report.completeness?.leftBehind ?? [];
    expect(left.length, stderr).to.be.above(0);
    expect(stderr).to.include(
      `warning: the scan could not delete ${left.length} object${left.length === 1 ? '' : 's'} it created: item http`,
    );
  });
});
