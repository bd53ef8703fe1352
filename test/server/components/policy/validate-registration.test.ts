import { expect } from 'chai';
import type { FieldError } from '../../../../lib/app-error.js';
import {
  validateRegistration,
  type RegistrationPolicyInput,
} from '../../../../server/components/policy/validate-registration.js';
import type { RegistrationConfig } from '../../../../server/components/registrations/registrations.model.js';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';

const web = (
  config: RegistrationConfig = {},
  extra: Partial<RegistrationPolicyInput> = {},
): RegistrationPolicyInput => ({
  clientType: 'confidential',
  applicationType: 'web',
  policyProfileId: 'pp_standard',
  plan: 'pro',
  config: {
    redirectUris: ['https://app.example.com/cb'],
    grantTypes: ['authorization_code', 'refresh_token'],
    ...config,
  },
  ...extra,
});
const native = (config: RegistrationConfig = {}, extra: Partial<RegistrationPolicyInput> = {}) =>
  web(config, { clientType: 'public', applicationType: 'native', ...extra });
const spa = (config: RegistrationConfig = {}) => web(config, { clientType: 'public', applicationType: 'spa' });
const service = (
  config: RegistrationConfig = {},
  extra: Partial<RegistrationPolicyInput> = {},
): RegistrationPolicyInput => ({
  clientType: 'confidential',
  applicationType: 'service',
  policyProfileId: 'pp_service',
  plan: 'pro',
  config,
  ...extra,
});
const fapi = (config: RegistrationConfig = {}): RegistrationPolicyInput =>
  web(
    {
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwksUri: 'https://app.example.com/jwks',
      requirePushedAuthorizationRequests: true,
      ...config,
    },
    { policyProfileId: 'pp_fapi2', plan: 'enterprise' },
  );

/** The violations at `path`, as messages. */
function at(problems: FieldError[], path: string): string[] {
  return problems.filter((p) => p.path === path).map((p) => p.message);
}
function expectOnly(problems: FieldError[], path: string, pattern: RegExp): void {
  expect(
    problems.map((p) => p.path),
    JSON.stringify(problems),
  ).to.deep.equal([path]);
  expect(problems[0]?.message).to.match(pattern);
}

describe('validateRegistration', () => {
  describe('valid registrations', () => {
    it('accepts a confidential web app with https redirect URIs', () => {
      expect(validateRegistration(web())).to.deep.equal([]);
    });
    it('accepts a native app with a loopback IPv4, a loopback IPv6, a private-use scheme and a claimed https URI', () => {
      const config = {
        redirectUris: [
          'http://127.0.0.1/cb',
          'http://[::1]:8080/cb',
          'com.example.app:/oauth2redirect',
          'https://app.example.com/native',
        ],
      };
      expect(validateRegistration(native(config))).to.deep.equal([]);
    });
    it('accepts a single-page app relying on defaults', () => {
      expect(validateRegistration(spa({ grantTypes: undefined }))).to.deep.equal([]);
    });
    it('accepts a service with defaults only', () => {
      expect(validateRegistration(service())).to.deep.equal([]);
    });
    it('accepts a FAPI 2.0 web app on enterprise', () => {
      expect(validateRegistration(fapi())).to.deep.equal([]);
    });
  });

  describe('redirect URIs', () => {
    it('refuses a wildcard', () => {
      expect(
        at(validateRegistration(web({ redirectUris: ['https://*.example.com/cb'] })), 'config.redirectUris[0]').join(),
      ).to.match(/wildcard/);
    });
    it('refuses a fragment', () => {
      expectOnly(
        validateRegistration(web({ redirectUris: ['https://app.example.com/cb#x'] })),
        'config.redirectUris[0]',
        /fragment/,
      );
    });
    it('refuses user information', () => {
      expectOnly(
        validateRegistration(web({ redirectUris: ['https://user@app.example.com/cb'] })),
        'config.redirectUris[0]',
        /user information/,
      );
    });
    for (const scheme of [
      'javascript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      'blob:https://a.example/1',
      'about:blank',
      'JavaScript:alert(1)',
    ]) {
      it(`refuses the dangerous URI ${scheme}`, () => {
        expectOnly(
          validateRegistration(native({ redirectUris: [scheme] })),
          'config.redirectUris[0]',
          /must not use the \w+: scheme/,
        );
      });
    }
    it('refuses a relative URI', () => {
      expectOnly(validateRegistration(web({ redirectUris: ['/cb'] })), 'config.redirectUris[0]', /absolute/);
    });
    it('refuses http for web apps, even on loopback', () => {
      const problems = validateRegistration(
        web({ redirectUris: ['http://app.example.com/cb', 'http://127.0.0.1/cb'] }),
      );
      expect(at(problems, 'config.redirectUris[0]').join()).to.match(/https/);
      expect(at(problems, 'config.redirectUris[1]').join()).to.match(/https/);
    });
    it('refuses http for native apps unless the host is a loopback IP literal', () => {
      expectOnly(
        validateRegistration(native({ redirectUris: ['http://app.example.com/cb'] })),
        'config.redirectUris[0]',
        /loopback/,
      );
    });
    it('refuses http://localhost for native apps and says to use 127.0.0.1', () => {
      expectOnly(
        validateRegistration(native({ redirectUris: ['http://localhost:8080/cb'] })),
        'config.redirectUris[0]',
        /127\.0\.0\.1/,
      );
    });
    it('refuses private-use schemes for web and single-page apps', () => {
      expectOnly(
        validateRegistration(web({ redirectUris: ['com.example.app:/cb'] })),
        'config.redirectUris[0]',
        /native apps only/,
      );
      expectOnly(
        validateRegistration(spa({ redirectUris: ['com.example.app:/cb'] })),
        'config.redirectUris[0]',
        /native apps only/,
      );
    });
    it('refuses private-use schemes that are not reverse DNS', () => {
      expectOnly(
        validateRegistration(native({ redirectUris: ['myapp:/cb'] })),
        'config.redirectUris[0]',
        /reverse-DNS/,
      );
    });
    it('refuses private-use URIs with an authority part', () => {
      expectOnly(
        validateRegistration(native({ redirectUris: ['com.example.app://cb'] })),
        'config.redirectUris[0]',
        /single slash/,
      );
    });
    it('refuses URIs not written as they will be matched', () => {
      for (const uri of [
        'HTTPS://app.example.com/cb',
        'https://App.Example.com/cb',
        'https://app.example.com',
        'https://app.example.com:443/cb',
        'https://app.example.com/a/../cb',
      ]) {
        expectOnly(
          validateRegistration(web({ redirectUris: [uri] })),
          'config.redirectUris[0]',
          /exactly as it will be matched/,
        );
      }
    });
    it('refuses an unparseable URI', () => {
      expectOnly(
        validateRegistration(web({ redirectUris: ['https://exa mple.com/cb'] })),
        'config.redirectUris[0]',
        /not a valid URI/,
      );
    });
    it('refuses duplicates and names the first occurrence', () => {
      const problems = validateRegistration(
        web({
          redirectUris: ['https://app.example.com/cb', 'https://app.example.com/other', 'https://app.example.com/cb'],
        }),
      );
      expectOnly(problems, 'config.redirectUris[2]', /duplicates config\.redirectUris\[0\]/);
    });
    it('caps the number of redirect URIs at 20', () => {
      const uris = Array.from({ length: 21 }, (_, i) => `https://app.example.com/cb${i}`);
      expectOnly(validateRegistration(web({ redirectUris: uris })), 'config.redirectUris', /at most 20/);
    });
    it('caps the length of a redirect URI at 2048 characters', () => {
      const uri = `https://app.example.com/${'a'.repeat(2048)}`;
      expectOnly(
        validateRegistration(web({ redirectUris: [uri] })),
        'config.redirectUris[0]',
        /at most 2048 characters/,
      );
    });
    it('needs a redirect URI for the authorization_code grant', () => {
      expectOnly(validateRegistration(web({ redirectUris: [] })), 'config.redirectUris', /at least one redirect URI/);
    });
    it('applies the same rules to post-logout redirect URIs', () => {
      const problems = validateRegistration(
        web({ postLogoutRedirectUris: ['https://app.example.com/bye', 'http://app.example.com/bye'] }),
      );
      expectOnly(problems, 'config.postLogoutRedirectUris[1]', /https/);
    });
  });

  describe('grant and response types', () => {
    it('refuses the implicit grant', () => {
      const problems = validateRegistration(web({ grantTypes: ['authorization_code', 'implicit'] }));
      expect(at(problems, 'config.grantTypes[1]').join()).to.match(/implicit grant is not allowed/);
    });
    it('refuses the password grant', () => {
      expect(
        at(
          validateRegistration(web({ grantTypes: ['authorization_code', 'password'] })),
          'config.grantTypes[1]',
        ).join(),
      ).to.match(/password grant/);
    });
    it('refuses token response types', () => {
      const problems = validateRegistration(web({ responseTypes: ['code', 'token', 'code id_token'] }));
      expect(problems.map((p) => p.path)).to.deep.equal(['config.responseTypes[1]', 'config.responseTypes[2]']);
    });
    it('needs the code response type with the authorization_code grant', () => {
      expectOnly(validateRegistration(web({ responseTypes: [] })), 'config.responseTypes', /must include "code"/);
    });
    it('needs the authorization_code grant with the code response type', () => {
      expectOnly(
        validateRegistration(service({ responseTypes: ['code'] })),
        'config.grantTypes',
        /must include authorization_code/,
      );
    });
    it('refuses refresh_token without a grant that issues refresh tokens', () => {
      const problems = validateRegistration(
        web({ grantTypes: ['client_credentials', 'refresh_token'], redirectUris: [] }),
      );
      expectOnly(problems, 'config.grantTypes', /refresh_token needs/);
    });
    it('refuses an empty grant type list', () => {
      expect(at(validateRegistration(web({ grantTypes: [], responseTypes: [] })), 'config.grantTypes').join()).to.match(
        /at least one/,
      );
    });
    it('refuses a duplicated grant type', () => {
      expectOnly(
        validateRegistration(web({ grantTypes: ['authorization_code', 'authorization_code'] })),
        'config.grantTypes[1]',
        /duplicates/,
      );
    });
    it('refuses grant types the application type cannot use', () => {
      const problems = validateRegistration({
        ...spa({ grantTypes: ['authorization_code', DEVICE] }),
        plan: 'enterprise',
      });
      expectOnly(problems, 'config.grantTypes[1]', /not available to spa applications/);
    });
    it('refuses grant types the plan does not include', () => {
      const problems = validateRegistration(
        web({ grantTypes: ['authorization_code', 'client_credentials'] }, { plan: 'free' }),
      );
      expectOnly(problems, 'config.grantTypes[1]', /not available on the free plan/);
    });
    it('offers the device grant on enterprise only', () => {
      expectOnly(
        validateRegistration(native({ grantTypes: ['authorization_code', DEVICE] })),
        'config.grantTypes[1]',
        /not available on the pro plan/,
      );
      expect(
        validateRegistration(native({ grantTypes: ['authorization_code', DEVICE] }, { plan: 'enterprise' })),
      ).to.deep.equal([]);
    });
  });

  describe('client authentication and PKCE', () => {
    it('refuses turning PKCE off for a public client', () => {
      expectOnly(
        validateRegistration(native({ requirePkce: false, redirectUris: ['http://127.0.0.1/cb'] })),
        'config.requirePkce',
        /PKCE is required for public clients/,
      );
    });
    it('lets a confidential standard client turn PKCE off', () => {
      expect(validateRegistration(web({ requirePkce: false }))).to.deep.equal([]);
    });
    it('refuses none for a confidential client', () => {
      expectOnly(
        validateRegistration(web({ tokenEndpointAuthMethod: 'none' })),
        'config.tokenEndpointAuthMethod',
        /only for public clients/,
      );
    });
    it('refuses a secret-based method for a public client', () => {
      expectOnly(
        validateRegistration(spa({ tokenEndpointAuthMethod: 'client_secret_basic' })),
        'config.tokenEndpointAuthMethod',
        /must be none/,
      );
    });
    it('refuses jwks and jwksUri together', () => {
      const problems = validateRegistration(
        web({ jwksUri: 'https://app.example.com/jwks', jwks: { keys: [{ kty: 'EC' }] } }),
      );
      expectOnly(problems, 'config.jwks', /together with jwksUri/);
    });
    it('needs registered keys for private_key_jwt', () => {
      expectOnly(
        validateRegistration(web({ tokenEndpointAuthMethod: 'private_key_jwt' })),
        'config.jwksUri',
        /is required/,
      );
    });
  });

  describe('other URLs and lists', () => {
    it('needs https for clientUri, logoUri and jwksUri', () => {
      const problems = validateRegistration(
        web({ clientUri: 'http://app.example.com', logoUri: 'ftp://app.example.com/logo.png', jwksUri: 'not a url' }),
      );
      expect(problems.map((p) => p.path)).to.deep.equal(['config.clientUri', 'config.logoUri', 'config.jwksUri']);
    });
    it('refuses duplicated scopes', () => {
      expectOnly(
        validateRegistration(web({ scopes: ['openid', 'profile', 'openid'] })),
        'config.scopes[2]',
        /duplicates config\.scopes\[0\]/,
      );
    });
  });

  describe('client kind, profile and plan', () => {
    it('refuses a confidential native app', () => {
      expectOnly(
        validateRegistration(
          native(
            { redirectUris: ['http://127.0.0.1/cb'], tokenEndpointAuthMethod: 'none' },
            { clientType: 'confidential' },
          ),
        ).filter((p) => p.path === 'applicationType'),
        'applicationType',
        /must be public/,
      );
    });
    it('refuses an unknown policy profile', () => {
      expectOnly(
        validateRegistration(web({}, { policyProfileId: 'pp_nope' })),
        'policyProfileId',
        /names no policy profile/,
      );
    });
    it('refuses a profile the plan does not include', () => {
      expectOnly(validateRegistration({ ...fapi(), plan: 'pro' }), 'policyProfileId', /not available on the pro plan/);
    });
    it('refuses public clients under pp_fapi2', () => {
      const problems = validateRegistration({
        ...fapi({ tokenEndpointAuthMethod: 'none', jwksUri: undefined }),
        clientType: 'public',
        applicationType: 'spa',
      });
      expect(at(problems, 'clientType').join()).to.match(/applies to confidential clients only/);
    });
    it('needs private_key_jwt under pp_fapi2', () => {
      expectOnly(
        validateRegistration(fapi({ tokenEndpointAuthMethod: 'client_secret_basic' })),
        'config.tokenEndpointAuthMethod',
        /not allowed by policy profile pp_fapi2/,
      );
    });
    it('needs pushed authorization requests under pp_fapi2', () => {
      expectOnly(
        validateRegistration(fapi({ requirePushedAuthorizationRequests: false })),
        'config.requirePushedAuthorizationRequests',
        /RFC 9126/,
      );
    });
    it('needs PKCE for confidential clients under pp_fapi2', () => {
      expectOnly(validateRegistration(fapi({ requirePkce: false })), 'config.requirePkce', /pp_fapi2/);
    });
    it('refuses other grants than client_credentials under pp_service', () => {
      const problems = validateRegistration(
        service({ grantTypes: ['client_credentials', 'authorization_code'], responseTypes: ['code'] }),
      );
      expect(at(problems, 'config.grantTypes[1]').join()).to.match(/not allowed by policy profile pp_service/);
    });
    it('refuses redirect URIs under pp_service', () => {
      expectOnly(
        validateRegistration(service({ redirectUris: ['https://app.example.com/cb'] })),
        'config.redirectUris',
        /must be empty/,
      );
    });
    it('refuses a service application under pp_standard', () => {
      expectOnly(
        validateRegistration(service({}, { policyProfileId: 'pp_standard' })),
        'applicationType',
        /pp_standard allows web, spa, native applications only/,
      );
    });
  });

  it('returns every violation at once', () => {
    const problems = validateRegistration({
      clientType: 'public',
      applicationType: 'spa',
      policyProfileId: 'pp_fapi2',
      plan: 'free',
      config: {
        redirectUris: [
          'http://app.example.com/cb',
          'https://app.example.com/cb#frag',
          'javascript:alert(1)',
          'http://app.example.com/cb',
        ],
        grantTypes: ['authorization_code', 'implicit', 'password', 'client_credentials'],
        responseTypes: ['code', 'token'],
        tokenEndpointAuthMethod: 'client_secret_post',
        requirePkce: false,
        jwksUri: 'http://app.example.com/jwks',
        jwks: { keys: [{ kty: 'RSA' }] },
      },
    });
    const paths = new Set(problems.map((p) => p.path));
    for (const path of [
      'policyProfileId',
      'clientType',
      'applicationType',
      'config.redirectUris[0]',
      'config.redirectUris[1]',
      'config.redirectUris[2]',
      'config.redirectUris[3]',
      'config.grantTypes[1]',
      'config.grantTypes[2]',
      'config.grantTypes[3]',
      'config.responseTypes[1]',
      'config.tokenEndpointAuthMethod',
      'config.requirePkce',
      'config.requirePushedAuthorizationRequests',
      'config.jwks',
      'config.jwksUri',
    ]) {
      expect(paths, `${path} in ${JSON.stringify(problems, null, 1)}`).to.include(path);
    }
    expect(problems.length).to.be.greaterThan(16);
    for (const p of problems) expect(p.message).to.be.a('string').and.not.equal('');
  });
});
