import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { defineSettings } from '../../../lib/settings/declaration.js';
import { loadSettings } from '../../../lib/settings/load-settings.js';
import { settingsProblems } from '../../../lib/settings/settings-error.js';

const schema = defineSettings(
  {
    port: { type: 'port', flag: '--port', env: 'APP_PORT', default: 8080, doc: 'Listener port.' },
    host: { type: 'string', flag: '--host', env: 'APP_HOST', default: '127.0.0.1', doc: 'Listener address.' },
    baseUrl: {
      type: 'url',
      env: 'APP_BASE_URL',
      default: (s) => `http://${s.host as string}:${s.port as number}`,
      doc: 'Where the app is reached.',
    },
    format: {
      type: 'enum',
      choices: ['opaque', 'jwt'],
      flag: '--format',
      env: 'APP_FORMAT',
      default: 'opaque',
      doc: 'Token format.',
    },
    scopes: { type: 'list', flag: '--scope', env: 'APP_SCOPES', doc: 'Scopes.' },
    retries: { type: 'integer', env: 'APP_RETRIES', min: 1, max: 5, default: 3, doc: 'Attempts.' },
    verbose: { type: 'boolean', flag: '--verbose', env: 'APP_VERBOSE', doc: 'Say more.' },
    secret: { type: 'string', env: 'APP_SECRET', secret: true, doc: 'A credential.' },
    registration: { type: 'boolean', flag: '--registration', env: 'APP_REGISTRATION', doc: 'Registration on.' },
    registrationToken: {
      type: 'string',
      flag: '--registration-token',
      env: 'APP_REGISTRATION_TOKEN',
      doc: 'Its token.',
    },
  },
  {
    tokenNeedsRegistration: (s, name) =>
      s.registrationToken && !s.registration ? `${name('registrationToken')} needs ${name('registration')}` : undefined,
  },
);

function problems(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    const found = settingsProblems(error);
    if (found) return found;
    throw error;
  }
  expect.fail('expected an invalid_settings error');
}

describe('lib/settings: loadSettings', () => {
  it('gives every setting its default, computed ones from the settings before them, and freezes the result', () => {
    const settings = loadSettings(schema, { env: {} });
    expect(settings).to.deep.include({
      port: 8080,
      host: '127.0.0.1',
      baseUrl: 'http://127.0.0.1:8080',
      format: 'opaque',
    });
    expect(settings.scopes).to.deep.equal([]);
    expect(settings.verbose).to.equal(false);
    expect(settings.secret).to.equal(undefined);
    expect(Object.isFrozen(settings)).to.equal(true);
  });

  it('lets a flag beat its variable, and a variable beat the default', () => {
    const settings = loadSettings(schema, {
      flags: { port: '9000', scopes: ['a,b', 'c'] },
      env: { APP_PORT: '7000', APP_HOST: '0.0.0.0', APP_SCOPES: 'x' },
    });
    expect(settings).to.deep.include({ port: 9000, host: '0.0.0.0', baseUrl: 'http://0.0.0.0:9000' });
    expect(settings.scopes).to.deep.equal(['a', 'b', 'c']);
  });

  it('lists every problem in one error, each named the way it was given, with the value given', () => {
    expect(
      problems(() =>
        loadSettings(schema, {
          flags: { port: 'eighty', format: 'JWT' },
          env: { APP_RETRIES: '9', APP_VERBOSE: 'maybe', APP_BASE_URL: 'not a url' },
        }),
      ),
    ).to.deep.equal([
      '--port must be a port number from 0 to 65535 (got "eighty")',
      'APP_BASE_URL must be an absolute URL (got "not a url")',
      '--format must be one of opaque, jwt (got "JWT")',
      'APP_RETRIES must be ≤ 5 (got "9")',
      'APP_VERBOSE must be true or false (got "maybe")',
    ]);
  });

  it('checks values given in code by type, and refuses an unknown key naming the closest one', () => {
    expect(
      problems(() => loadSettings(schema, { given: { prot: 1, format: 'JWT', verbose: 'yes', scopes: 'a' } })),
    ).to.deep.equal([
      'unknown option prot (did you mean port?)',
      'format must be one of opaque, jwt (got "JWT")',
      'scopes must be a list of strings (got "a")',
      'verbose must be true or false (got "yes")',
    ]);
    expect(loadSettings(schema, { given: { port: 0, scopes: ['a'], verbose: true } })).to.deep.include({
      port: 0,
      verbose: true,
    });
  });

  it('runs the rules beside the settings, naming each setting as it was given', () => {
    expect(problems(() => loadSettings(schema, { flags: { registrationToken: 't' }, env: {} }))).to.deep.equal([
      '--registration-token needs --registration',
    ]);
    expect(problems(() => loadSettings(schema, { env: { APP_REGISTRATION_TOKEN: 't' } }))).to.deep.equal([
      'APP_REGISTRATION_TOKEN needs APP_REGISTRATION',
    ]);
    expect(problems(() => loadSettings(schema, { given: { registrationToken: 't' } }))).to.deep.equal([
      'registrationToken needs registration',
    ]);
  });

  it('takes typed values from the environment as given in code (a worker’s JSON variables)', () => {
    expect(loadSettings(schema, { env: { APP_PORT: 9, APP_VERBOSE: true, APP_SCOPES: ['a'] } })).to.deep.include({
      port: 9,
      verbose: true,
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadSettings(schema, { env: { APP_PORT: '' } }).port).to.equal(8080);
  });

  describe('secrets', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'settings-'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('reads a secret from the file <NAME>_FILE names, without its trailing newline', () => {
      const file = join(dir, 'secret');
      writeFileSync(file, 's3cret value\n');
      expect(loadSettings(schema, { env: { APP_SECRET_FILE: file } }).secret).to.equal('s3cret value');
    });

    it('refuses a secret set both ways, and names a file it cannot read', () => {
      const file = join(dir, 'secret');
      writeFileSync(file, 'x');
      expect(problems(() => loadSettings(schema, { env: { APP_SECRET: 'y', APP_SECRET_FILE: file } }))).to.deep.equal([
        'set APP_SECRET or APP_SECRET_FILE, not both',
      ]);
      expect(problems(() => loadSettings(schema, { env: { APP_SECRET_FILE: join(dir, 'missing') } }))[0]).to.match(
        /^APP_SECRET_FILE: cannot read .*missing \(ENOENT\)$/,
      );
    });

    it('reads <NAME>_FILE only for secrets', () => {
      expect(loadSettings(schema, { env: { APP_HOST_FILE: '/nonexistent' } }).host).to.equal('127.0.0.1');
    });

    it('never repeats a secret’s value in a problem', () => {
      const secretSchema = defineSettings({
        token: { type: 'string', env: 'TOKEN', secret: true, check: () => 'is too short', doc: 'A token.' },
      });
      expect(problems(() => loadSettings(secretSchema, { env: { TOKEN: 'hunter2' } }))).to.deep.equal([
        'TOKEN is too short',
      ]);
    });
  });

  it('reports a required setting that is missing with its doc', () => {
    const required = defineSettings({ uri: { type: 'url', env: 'DB_URI', required: true, doc: 'The database.' } });
    expect(problems(() => loadSettings(required, { env: {} }))).to.deep.equal(['DB_URI is required: The database.']);
  });
});
