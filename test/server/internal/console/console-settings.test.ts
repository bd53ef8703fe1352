/** The console's settings: loaded with the declarative loader, turned into OIDC options only when a client is set. */
import { expect } from 'chai';
import { defineSettings } from '../../../../lib/settings/declaration.js';
import { loadSettings } from '../../../../lib/settings/load-settings.js';
import { consoleOidcOptions } from '../../../../server/internal/console/console-settings.js';
import { consoleSettings } from '../../../../server/internal/console/console-settings-spec.js';

const schema = defineSettings({
  host: { env: 'HOST', type: 'string', default: '127.0.0.1', doc: 'host' },
  internalPort: { env: 'INTERNAL_PORT', type: 'port', default: 3001, doc: 'port' },
  ...consoleSettings,
});

describe('console settings', () => {
  const shared = { authIssuer: 'http://127.0.0.1:8484', internalAuthAudience: 'http://127.0.0.1:3001/internal' };

  it('defaults the console URL to the internal listener and derives the redirect URI from it', () => {
    const config = loadSettings(schema, {
      env: { CONSOLE_OIDC_CLIENT_ID: 'console', CONSOLE_OIDC_CLIENT_SECRET: 's3cret' },
    });
    expect(config.consoleBaseUrl).to.equal('http://127.0.0.1:3001/console');
    expect(consoleOidcOptions({ ...shared, ...config })).to.deep.equal({
      issuer: 'http://127.0.0.1:8484',
      clientId: 'console',
      clientSecret: 's3cret',
      redirectUri: 'http://127.0.0.1:3001/console/callback',
      resource: 'http://127.0.0.1:3001/internal',
    });
  });

  it('gives no console without a client secret', () => {
    const config = loadSettings(schema, { env: { CONSOLE_OIDC_CLIENT_ID: 'console' } });
    expect(consoleOidcOptions({ ...shared, ...config })).to.equal(undefined);
  });
});
