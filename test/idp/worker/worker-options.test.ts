import { expect } from 'chai';
import { idpSettings } from '../../../idp/settings.js';
import { WORKER_IGNORED, workerSettingsFrom } from '../../../idp/worker/worker-options.js';

describe('idp worker: IDP_* worker variables become the same options as the CLI flags', () => {
  it('reads every setting the CLI has from its variable', () => {
    const env: Record<string, unknown> = {
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
      IDP_ID_TOKEN_INCLUDES_USERINFO_CLAIMS: 'true',
      IDP_ENABLE_REGISTRATION: 'true',
      IDP_REGISTRATION_INITIAL_ACCESS_TOKEN: 'iat',
      IDP_TRUST_PROXY: 'true',
      IDP_SCOPES: 'openid,email',
      IDP_LOG_LEVEL: 'warn',
    };
    const { settings, options } = workerSettingsFrom(env);
    expect(options).to.deep.include({
      issuer: 'https://idp.example.dev',
      clientId: 'edge',
      clientSecret: 'edge-secret',
      redirectUris: ['http://127.0.0.1:3000/cb', 'http://localhost:3000/cb'],
      postLogoutRedirectUri: 'http://127.0.0.1:3000/bye',
      publicClient: false,
      skipPrompt: true,
      accessTokenFormat: 'jwt',
      defaultAudience: 'https://api.example.dev',
      idTokenIncludesUserinfoClaims: true,
      enableRegistration: true,
      registrationInitialAccessToken: 'iat',
      trustProxy: true,
      scopes: ['openid', 'email'],
    });
    expect(options.users!.map((u) => u.sub)).to.deep.equal(['alice', 'bob']);
    expect(options.defaultUser!.sub).to.equal('bob');
    expect(settings.logLevel).to.equal('warn');
    expect(options).to.not.have.property('port');
    // Every setting is either read, refused with a reason, or (port, host) meaningless on a worker.
    const covered = new Set([
      ...Object.keys(env),
      ...[
        'IDP_JWKS_FILE',
        'IDP_SAVE_JWKS',
        'IDP_DATABASE_URL',
        'IDP_ENABLE_TESTING_API',
        'IDP_ALLOW_TESTING_API_ON_PUBLIC_HOST',
        'IDP_TENANTS',
      ],
      ...Object.keys(WORKER_IGNORED).map((k) => idpSettings[k as keyof typeof idpSettings].env),
    ]);
    expect(
      Object.values(idpSettings)
        .map((s) => s.env)
        .filter((name) => !covered.has(name)),
    ).to.deep.equal([]);
  });

  it('accepts JSON-typed variables (booleans, numbers, lists, objects) as wrangler.jsonc may hold them', () => {
    const { options } = workerSettingsFrom({
      IDP_SKIP_PROMPT: true,
      IDP_REDIRECT_URI: ['http://127.0.0.1:3000/cb'],
      IDP_DEFAULT_USER: { sub: 'carol', email: 'carol@example.com' },
      IDP_SCOPES: ['openid', 'profile'],
    });
    expect(options).to.deep.include({
      skipPrompt: true,
      redirectUris: ['http://127.0.0.1:3000/cb'],
      scopes: ['openid', 'profile'],
    });
    expect(options.defaultUser).to.deep.include({ sub: 'carol', email: 'carol@example.com' });
  });

  it('lists every invalid variable at once, by its name', () => {
    expect(() => workerSettingsFrom({ IDP_SKIP_PROMPT: 'maybe', IDP_ACCESS_TOKEN_FORMAT: 'paseto' })).to.throw(
      /IDP_SKIP_PROMPT.*IDP_ACCESS_TOKEN_FORMAT|IDP_ACCESS_TOKEN_FORMAT.*IDP_SKIP_PROMPT/,
    );
  });

  it('refuses the settings that need a file system or MongoDB, saying where the state lives instead', () => {
    expect(() =>
      workerSettingsFrom({ IDP_JWKS_FILE: 'keys.json', IDP_DATABASE_URL: 'mongodb://127.0.0.1/idp' }),
    ).to.throw(
      /IDP_JWKS_FILE is not available on the worker: .*kept in D1; IDP_DATABASE_URL is not available on the worker/,
    );
  });

  it('refuses the testing API and tenants, saying why', () => {
    expect(() => workerSettingsFrom({ IDP_ENABLE_TESTING_API: 'true', IDP_TENANTS: 'a,b' })).to.throw(
      /IDP_ENABLE_TESTING_API is not available on the worker: .*Node IdP only.*; IDP_TENANTS is not available on the worker: /,
    );
  });

  it('ignores variables that are not IDP_* settings (bindings, other vars)', () => {
    expect(workerSettingsFrom({ DB: {}, OTHER: 'x' }).options.skipPrompt).to.equal(false);
  });
});
