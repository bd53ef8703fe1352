import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { main, type MainIo } from '../../../server/main.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';

function capture(): MainIo & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    out: () => out,
    err: () => err,
  };
}

describe('registration-service (main)', () => {
  let auth: TestAuth;
  let dir: string;
  before(async () => {
    auth = await startTestAuth();
    dir = await mkdtemp(join(tmpdir(), 'main-'));
  });
  after(async () => {
    await auth.close();
    await rm(dir, { recursive: true });
  });

  it('prints usage and every setting for --help and exits 0', async () => {
    const io = capture();
    expect(await main(['--help'], {}, io)).to.equal(0);
    expect(io.out()).to.contain('Usage: registration-service');
    expect(io.out()).to.contain('--seed <file>');
    expect(io.out()).to.contain('API_AUTH_ISSUER');
    expect(io.out()).to.contain('SEED_FILE');
  });

  it('exits 2 on an unknown option', async () => {
    const io = capture();
    expect(await main(['--bogus'], {}, io)).to.equal(2);
    expect(io.err()).to.contain('--bogus');
  });

  it('exits 2 listing every settings problem, the cross-checked auth settings included', async () => {
    const io = capture();
    expect(await main([], { PORT: 'abc', LOG_LEVEL: 'loud' }, io)).to.equal(2);
    expect(io.err()).to.contain('PORT');
    expect(io.err()).to.contain('LOG_LEVEL');
    const io2 = capture();
    expect(await main([], { API_AUTH_TOKEN_TYPES: 'jwt,opaque' }, io2)).to.equal(2);
    expect(io2.err()).to.contain('API_AUTH_CLIENT_ID and API_AUTH_CLIENT_SECRET are required');
    const io3 = capture();
    expect(await main([], { API_AUTH_TOKEN_TYPES: 'jwt', API_AUTH_ALGORITHMS: 'RS256,EdDSA' }, io3)).to.equal(2);
    expect(io3.err()).to.contain('EdDSA is not supported');
  });

  it('exits 2 listing the problems of an invalid seed file before listening', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(file, 'organizations: [{ name: X, plan: gold }, { name: "", plan: free }]\n');
    const io = capture();
    let listened = false;
    const code = await main(['--seed', file], auth.env({ PORT: '0', INTERNAL_PORT: '0' }), io, {
      onListening: () => (listened = true),
    });
    expect(code).to.equal(2);
    expect(listened).to.equal(false);
    expect(io.err()).to.contain('organizations[0].plan');
    expect(io.err()).to.contain('organizations[1].name');
  });

  it('serves the API with the seeded data (SEED_FILE) and stops cleanly when signalled', async () => {
    const file = join(dir, 'seed.json');
    const org = 'org_demo1234567890abcd';
    await writeFile(
      file,
      JSON.stringify({
        organizations: [{ id: org, name: 'Demo', plan: 'pro' }],
        grants: [{ organizationId: org, subject: 'alice', default: true }],
      }),
    );
    const stop = new AbortController();
    let url = '';
    let listening!: () => void;
    const up = new Promise<void>((resolve) => (listening = resolve));
    const io = capture();
    const exited = main([], auth.env({ PORT: '0', INTERNAL_PORT: '0', SEED_FILE: file }), io, {
      signal: stop.signal,
      onListening: (u) => {
        url = u;
        listening();
      },
    });
    await up;
    const health = await fetch(`${url}/healthz`);
    expect(health.status).to.equal(200);
    const orgs = await fetch(`${url}/api/v1/organizations`, {
      headers: { authorization: `Bearer ${await auth.token()}` },
    });
    expect(orgs.status).to.equal(200);
    const body = (await orgs.json()) as { data: { id: string; isDefault: boolean }[] };
    expect(body.data.map((o) => [o.id, o.isDefault])).to.deep.equal([[org, true]]);
    stop.abort();
    expect(await exited).to.equal(0);
  });

  it('serves the reviewer surface on INTERNAL_PORT and never on the public listener', async () => {
    const stop = new AbortController();
    let urls: [string, string] = ['', ''];
    let listening!: () => void;
    const up = new Promise<void>((resolve) => (listening = resolve));
    const exited = main([], auth.env({ PORT: '0', INTERNAL_PORT: '0' }), capture(), {
      signal: stop.signal,
      onListening: (url, internalUrl) => {
        urls = [url, internalUrl];
        listening();
      },
    });
    await up;
    const [publicUrl, internalUrl] = urls;
    expect(internalUrl).to.not.equal(publicUrl);
    const reviewer = {
      authorization: `Bearer ${await auth.token({ scope: 'gatehouse:review gatehouse:admin registrations:read' })}`,
    };
    expect((await fetch(`${internalUrl}/internal/v1/review-queue`)).status).to.equal(401);
    expect((await fetch(`${publicUrl}/internal/v1/review-queue`, { headers: reviewer })).status).to.equal(404);
    stop.abort();
    expect(await exited).to.equal(0);
  });
});
