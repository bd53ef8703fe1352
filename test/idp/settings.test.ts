import { expect } from 'chai';
import { createIdp } from '../../idp/create-idp.js';
import { DEFAULT_SCOPES, idpSettings, resolveIdpConfig, type IdpOptions } from '../../idp/settings.js';
import { settingsProblems } from '../../lib/settings/settings-error.js';

async function refused(options: IdpOptions): Promise<{ code: string; problems: string[] }> {
  let error: unknown;
  const idp = await createIdp(options).catch((e: unknown) => (error = e));
  if (!error) {
    await (idp as Awaited<ReturnType<typeof createIdp>>).close();
    expect.fail('createIdp should have refused its options');
  }
  return { code: (error as { code: string }).code, problems: settingsProblems(error) ?? [] };
}

describe('idp: settings', () => {
  describe('createIdp checks what it is given as the CLI checks its flags', () => {
    it('refuses a misspelled option, naming the one meant', async () => {
      expect(await refused({ port: 0, skipPromt: true } as IdpOptions)).to.deep.equal({
        code: 'invalid_settings',
        problems: ['unknown option skipPromt (did you mean skipPrompt?)'],
      });
    });

    it('refuses a value outside an enum, exactly as written', async () => {
      expect((await refused({ port: 0, accessTokenFormat: 'JWT' as 'jwt' })).problems).to.deep.equal([
        'accessTokenFormat must be one of opaque, jwt (got "JWT")',
      ]);
    });

    it('refuses a user without sub', async () => {
      expect((await refused({ port: 0, users: [{ name: 'No Sub' } as never] })).problems).to.deep.equal([
        'users has a user without a "sub" (user 0) (got [{"name":"No Sub"}])',
      ]);
    });

    it('lists every problem at once, and the rules between options by their names', async () => {
      expect((await refused({ port: 70000, skipPrompt: 'yes' as never, tenants: ['A'] })).problems).to.deep.equal([
        'port must be a port number from 0 to 65535 (got 70000)',
        'skipPrompt must be true or false (got "yes")',
        'tenants must be lower-case letters, digits, - or _, and not a reserved path (got "A")',
      ]);
      expect((await refused({ port: 0, publicClient: true })).problems).to.deep.equal([
        'publicClient needs at least one redirectUris',
      ]);
      expect((await refused({ port: 0, host: '0.0.0.0', enableTestingApi: true })).problems[0]).to.match(
        /^enableTestingApi lets anyone mint tokens .* refusing it on 0\.0\.0\.0/,
      );
    });
  });

  describe('resolveIdpConfig', () => {
    it('resolves once into a complete, frozen configuration: every setting present, defaults applied', () => {
      const config = resolveIdpConfig({ skipPrompt: true });
      expect(Object.keys(config)).to.deep.equal(Object.keys(idpSettings.settings));
      expect(config).to.deep.include({
        port: 8484,
        host: '127.0.0.1',
        skipPrompt: true,
        accessTokenFormat: 'opaque',
        scopes: DEFAULT_SCOPES,
        tenants: [],
        redirectUris: [],
        enableTestingApi: false,
      });
      expect(Object.isFrozen(config)).to.equal(true);
    });
  });
});
