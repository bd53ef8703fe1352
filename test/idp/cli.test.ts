import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type CliIo } from '../../idp/cli.js';
import type { RunningIdp } from '../../idp/create-idp.js';
import { idpSettings } from '../../idp/settings.js';
import type { SettingDeclaration } from '../../lib/settings/declaration.js';
import { discover, headlessLogin } from './support/relying-party.js';

interface Captured {
  code: Promise<number>;
  stdout: () => string;
  stderr: () => string;
  idp: Promise<RunningIdp>;
  stop: () => Promise<number>;
}

function start(argv: string[], env: Record<string, string> = {}): Captured {
  let out = '';
  let err = '';
  const controller = new AbortController();
  let listening!: (idp: RunningIdp) => void;
  const idp = new Promise<RunningIdp>((resolve) => (listening = resolve));
  const io: CliIo = {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    signal: controller.signal,
    onListening: listening,
  };
  const code = run(argv, io);
  return {
    code,
    stdout: () => out,
    stderr: () => err,
    idp,
    stop: () => {
      controller.abort();
      return code;
    },
  };
}

async function fails(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const c = start(argv, env);
  expect(await c.code, c.stderr()).to.equal(1);
  const lines = c.stderr().trim().split('\n');
  expect(lines, c.stderr()).to.have.length(1);
  expect(c.stdout()).to.equal('');
  return lines[0];
}

describe('idp CLI', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'idp-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists every flag with its IDP_ environment variable and exits 0', async () => {
    const c = start(['--help']);
    expect(await c.code).to.equal(0);
    const flags = Object.values(idpSettings.settings as Record<string, SettingDeclaration>).filter((s) => s.flag);
    expect(flags.length).to.be.greaterThan(20);
    for (const { flag, env } of flags) {
      expect(c.stdout()).to.contain(flag).and.contain(`[${env}]`);
      expect(env).to.equal(`IDP_${flag!.slice(2).replaceAll('-', '_').toUpperCase()}`);
    }
  });

  it('exits 1 with one readable line naming the flag or variable for invalid values', async () => {
    expect(await fails(['--port', 'abc'])).to.equal(
      'idp: --port must be a port number from 0 to 65535 (got "abc") (see idp --help)',
    );
    expect(await fails([], { IDP_PORT: '99999' })).to.contain('IDP_PORT must be a port number from 0 to 65535');
    expect(await fails(['--access-token-format', 'xml'])).to.contain(
      '--access-token-format must be one of opaque, jwt',
    );
    expect(await fails(['--redirect-uri', 'not a url'])).to.contain('--redirect-uri must be an absolute URI');
    expect(await fails(['--database-url', 'http://db.example'])).to.contain(
      '--database-url must be a mongodb:// or mongodb+srv:// URL',
    );
    expect(await fails(['--skip-prompt=maybe'])).to.match(/^idp: /);
    expect(await fails(['--frobnicate'])).to.contain('unknown option --frobnicate');
    expect(await fails(['--skip-promt'])).to.contain('unknown option --skip-promt (did you mean --skip-prompt?)');
    expect(await fails(['--users', join(dir, 'missing.yaml')])).to.contain(
      '--users names a users file that cannot be read',
    );
    expect(await fails(['--default-user', '{not json'])).to.contain('--default-user must be a JSON object');
    expect(await fails(['--default-user', '{"name":"no sub"}'])).to.contain('--default-user has no "sub"');
    expect(await fails(['--port', '0', '--jwks-file', join(dir, 'missing.json')])).to.contain(
      'cannot read --jwks-file',
    );
    expect(await fails(['--port', '0', '--public-client'])).to.contain(
      '--public-client needs at least one --redirect-uri',
    );
    expect(await fails(['--port', '0', '--registration-initial-access-token', 't'])).to.contain(
      'needs --enable-registration',
    );
    expect(await fails(['--port', '0', '--scopes', 'email,profile'])).to.contain('--scopes must include openid');
    expect(await fails(['--save-jwks'])).to.contain('--save-jwks needs --jwks-file');
    expect(await fails([], { IDP_SAVE_JWKS: 'true' })).to.contain('IDP_SAVE_JWKS needs --jwks-file');
  });

  it('exits 1 with one line when the port is taken', async () => {
    const first = start(['--port', '0']);
    const idp = await first.idp;
    try {
      expect(await fails(['--port', new URL(idp.url).port])).to.contain('address already in use');
    } finally {
      await first.stop();
    }
  });

  it('prints issuer, discovery URL, the client and the registration details at start, and exits 0 when stopped', async () => {
    const c = start([
      '--port',
      '0',
      '--client-id',
      'web',
      '--client-secret',
      's3cret',
      '--redirect-uri',
      'http://127.0.0.1:9/a',
      '--redirect-uri',
      'http://127.0.0.1:9/b',
      '--enable-registration',
      '--registration-initial-access-token',
      'iat-1',
    ]);
    const idp = await c.idp;
    const out = c.stdout();
    expect(out).to.contain(`Issuer:`).and.contain(idp.issuer);
    expect(out).to.contain(`${idp.issuer}/.well-known/openid-configuration`);
    expect(out)
      .to.match(/Client ID:\s+web\n/)
      .and.match(/Client secret:\s+s3cret\n/);
    expect(out).to.match(/Redirect URIs:\s+http:\/\/127\.0\.0\.1:9\/a http:\/\/127\.0\.0\.1:9\/b\n/);
    expect(out)
      .to.match(new RegExp(`Registration URL:\\s+${idp.issuer}/register\\n`))
      .and.match(/Initial access token:\s+iat-1\n/);
    expect(await c.stop()).to.equal(0);
  });

  it('takes every setting from IDP_ variables, and a flag beats its variable', async () => {
    const users = join(dir, 'users.yaml');
    writeFileSync(
      users,
      'users:\n  - sub: dana\n    email: dana@example.com\n  - sub: erin\n    email: erin@example.com\n',
    );
    const c = start(['--port', '0', '--client-id', 'from-flag'], {
      IDP_CLIENT_ID: 'from-env',
      IDP_CLIENT_SECRET: 'env-secret',
      IDP_REDIRECT_URI: 'http://127.0.0.1:9/cb,http://127.0.0.1:9/cb2',
      IDP_SKIP_PROMPT: 'true',
      IDP_USERS: users,
      IDP_LOG_LEVEL: 'silent',
    });
    const idp = await c.idp;
    try {
      expect(idp.client.clientId).to.equal('from-flag');
      expect(idp.client.clientSecret).to.equal('env-secret');
      expect(idp.client.redirectUris).to.deep.equal(['http://127.0.0.1:9/cb', 'http://127.0.0.1:9/cb2']);
      const { tokens } = await headlessLogin(await discover(idp), idp, { loginHint: 'erin@example.com' });
      expect(tokens.claims()!.sub).to.equal('erin');
    } finally {
      await c.stop();
    }
  });

  it('takes the users document inline as JSON', async () => {
    const c = start(['--port', '0', '--skip-prompt', '--redirect-uri', 'http://127.0.0.1:9/cb'], {
      IDP_USERS: '[{"sub":"fay","email":"fay@example.com"}]',
    });
    const idp = await c.idp;
    try {
      const { tokens } = await headlessLogin(await discover(idp), idp, { loginHint: 'fay@example.com' });
      expect(tokens.claims()!.sub).to.equal('fay');
      expect(c.stdout()).to.match(/Users:\s+fay\n/);
    } finally {
      await c.stop();
    }
    expect(await fails(['--users', '[{"name":"x"}]'])).to.contain('--users has a user without a "sub" (user 0)');
  });

  it('writes generated keys with --save-jwks and signs with the same key on the next start', async () => {
    const file = join(dir, 'keys.json');
    const kidOf = async (idp: RunningIdp) =>
      ((await (await fetch(`${idp.issuer}/jwks`)).json()) as { keys: { kid: string }[] }).keys[0].kid;
    const first = start(['--port', '0', '--jwks-file', file, '--save-jwks']);
    const kid = await kidOf(await first.idp);
    await first.stop();
    expect((JSON.parse(readFileSync(file, 'utf8')) as { keys: { kid: string; d?: string }[] }).keys[0])
      .to.include({ kid })
      .and.have.property('d');
    const second = start(['--port', '0', '--jwks-file', file]);
    expect(await kidOf(await second.idp)).to.equal(kid);
    await second.stop();
  });
});
