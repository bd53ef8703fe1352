import { expect } from 'chai';
import type { SettingDeclaration } from '../../../lib/settings/declaration.js';
import { settingsProblems } from '../../../lib/settings/settings-error.js';
import { idpSettings } from '../../../idp/settings.js';
import { workerConfigFrom } from '../../../idp/worker/worker-options.js';

describe('idp worker: IDP_* worker variables become the same configuration as the CLI flags', () => {
  it('reads the settings from their variables', () => {
    const config = workerConfigFrom({
      IDP_ISSUER: 'https://idp.example.dev',
      IDP_CLIENT_ID: 'edge',
      IDP_CLIENT_SECRET: 'edge-secret',
      IDP_REDIRECT_URI: 'http://127.0.0.1:3000/cb,http://localhost:3000/cb',
      IDP_POST_LOGOUT_REDIRECT_URI: 'http://127.0.0.1:3000/bye',
      IDP_PUBLIC_CLIENT: 'false',
      IDP_USERS: '[{"sub":"alice"},{"sub":"bob","email":"bob@example.com"}]',
      IDP_DEFAULT_USER: '{"sub":"bob"}',
      IDP_SKIP_PROMPT: 'true',
      IDP_ACCESS_TOKEN_FORMAT: 'jwt',
      IDP_DEFAULT_AUDIENCE: 'https://api.example.dev',
      IDP_ENABLE_REGISTRATION: 'true',
      IDP_REGISTRATION_INITIAL_ACCESS_TOKEN: 'iat',
      IDP_SCOPES: 'openid,email',
      IDP_LOG_LEVEL: 'warn',
    });
    expect(config).to.deep.include({
      issuer: 'https://idp.example.dev',
      clientId: 'edge',
      clientSecret: 'edge-secret',
      redirectUris: ['http://127.0.0.1:3000/cb', 'http://localhost:3000/cb'],
      postLogoutRedirectUri: 'http://127.0.0.1:3000/bye',
      publicClient: false,
      skipPrompt: true,
      accessTokenFormat: 'jwt',
      defaultAudience: 'https://api.example.dev',
      enableRegistration: true,
      registrationInitialAccessToken: 'iat',
      scopes: ['openid', 'email'],
      logLevel: 'warn',
    });
    expect(config.users!.map((u) => u.sub)).to.deep.equal(['alice', 'bob']);
    expect(config.defaultUser!.sub).to.equal('bob');
  });

  it('reaches every on/off setting through its variable, or refuses it saying why', () => {
    const onOff = Object.entries(idpSettings.settings as Record<string, SettingDeclaration>).filter(
      ([, s]) => s.type === 'boolean' && s.env,
    );
    expect(onOff.length).to.be.greaterThan(5);
    let reached = 0;
    for (const [key, { env }] of onOff) {
      try {
        const config = workerConfigFrom({ [env!]: 'true', IDP_REDIRECT_URI: 'http://127.0.0.1:3000/cb' });
        expect(config[key as keyof typeof config], env).to.equal(true);
        reached += 1;
      } catch (error) {
        expect((error as { code?: string }).code, env).to.equal('unavailable_on_worker');
        expect((error as Error).message).to.match(new RegExp(`^${env} is not available on the worker: \\w`));
      }
    }
    expect(reached).to.be.greaterThan(3);
  });

  it('accepts JSON-typed variables (booleans, numbers, lists, objects) as wrangler.jsonc may hold them', () => {
    const config = workerConfigFrom({
      IDP_SKIP_PROMPT: true,
      IDP_REDIRECT_URI: ['http://127.0.0.1:3000/cb'],
      IDP_DEFAULT_USER: { sub: 'carol', email: 'carol@example.com' },
      IDP_SCOPES: ['openid', 'profile'],
    });
    expect(config).to.deep.include({
      skipPrompt: true,
      redirectUris: ['http://127.0.0.1:3000/cb'],
      scopes: ['openid', 'profile'],
    });
    expect(config.defaultUser).to.deep.include({ sub: 'carol', email: 'carol@example.com' });
  });

  it('lists every invalid variable at once, by its name', () => {
    let error: unknown;
    try {
      workerConfigFrom({ IDP_SKIP_PROMPT: 'maybe', IDP_ACCESS_TOKEN_FORMAT: 'paseto' });
    } catch (e) {
      error = e;
    }
    expect(settingsProblems(error)).to.deep.equal([
      'IDP_SKIP_PROMPT must be true or false (got "maybe")',
      'IDP_ACCESS_TOKEN_FORMAT must be one of opaque, jwt (got "paseto")',
    ]);
  });

  it('refuses the settings that need a file system or MongoDB, saying where the state lives instead', () => {
    expect(() =>
      workerConfigFrom({ IDP_JWKS_FILE: 'keys.json', IDP_DATABASE_URL: 'mongodb://127.0.0.1/idp' }),
    ).to.throw(
      /IDP_JWKS_FILE is not available on the worker: .*kept in D1; IDP_DATABASE_URL is not available on the worker/,
    );
  });

  it('lists a refused setting and an invalid value in one error', () => {
    expect(() => workerConfigFrom({ IDP_SAVE_JWKS: 'true', IDP_SKIP_PROMPT: 'sometimes' })).to.throw(
      /^IDP_SAVE_JWKS is not available on the worker: .*; IDP_SKIP_PROMPT must be true or false \(got "sometimes"\)$/,
    );
  });

  it('refuses the testing API and tenants, saying why', () => {
    expect(() => workerConfigFrom({ IDP_ENABLE_TESTING_API: 'true', IDP_TENANTS: 'a,b' })).to.throw(
      /IDP_ENABLE_TESTING_API is not available on the worker: .*Node IdP only.*; IDP_TENANTS is not available on the worker: /,
    );
  });

  it('ignores variables that are not IDP_* settings (bindings, other vars)', () => {
    expect(workerConfigFrom({ DB: {}, OTHER: 'x' }).skipPrompt).to.equal(false);
  });
});
