import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { settingsProblems } from '../../lib/settings/settings-error.js';
import { loadServiceConfig, serviceSettings } from '../../server/config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadServiceConfig(env);
  } catch (error) {
    return settingsProblems(error) ?? [String(error)];
  }
  return [];
}

describe('service settings', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'service-settings-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every secret setting from <NAME>_FILE as well (a mounted secret)', () => {
    const secrets = Object.values(serviceSettings.settings).filter((s) => 'secret' in s && s.secret);
    expect(secrets.map((s) => s.env)).to.include.members([
      'API_AUTH_CLIENT_SECRET',
      'CURSOR_SECRET',
      'PROVISIONING_ENCRYPTION_KEY',
      'MONGODB_URI',
    ]);
    const file = join(dir, 'client-secret');
    writeFileSync(file, 'from-a-file\n');
    const config = loadServiceConfig({ API_AUTH_CLIENT_ID: 'api', API_AUTH_CLIENT_SECRET_FILE: file });
    expect(config.authClientSecret).to.equal('from-a-file');
    expect(config.authTokenTypes).to.deep.equal(['jwt', 'opaque']);
  });

  it('refuses a secret given both ways with one clear start-up error, never showing the value', () => {
    const file = join(dir, 'cursor');
    writeFileSync(file, 'x'.repeat(40));
    expect(problems({ CURSOR_SECRET: 'y'.repeat(40), CURSOR_SECRET_FILE: file })).to.deep.equal([
      'set CURSOR_SECRET or CURSOR_SECRET_FILE, not both',
    ]);
    expect(problems({ CURSOR_SECRET: 'short' })).to.deep.equal(['CURSOR_SECRET must be at least 32 characters']);
  });

  it('takes --seed over SEED_FILE', () => {
    expect(loadServiceConfig({ SEED_FILE: 'a.yaml' }, { seedFile: 'b.yaml' }).seedFile).to.equal('b.yaml');
  });

  it('lists every problem at once, the rules between the auth settings included', () => {
    expect(problems({ PORT: 'abc', API_AUTH_TOKEN_TYPES: 'opaque', API_AUTH_ALGORITHMS: '' })).to.deep.equal([
      'PORT must be a port number from 0 to 65535 (got "abc")',
    ]);
    expect(problems({ API_AUTH_TOKEN_TYPES: 'opaque' })).to.deep.equal([
      'API_AUTH_CLIENT_ID and API_AUTH_CLIENT_SECRET are required when API_AUTH_TOKEN_TYPES includes opaque (RFC 7662 introspection is authenticated); set them, or set API_AUTH_TOKEN_TYPES=jwt',
    ]);
  });
});
