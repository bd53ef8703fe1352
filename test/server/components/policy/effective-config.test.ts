import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import { effectiveConfig } from '../../../../server/components/policy/effective-config.js';
import { TEMPLATES } from '../../../../server/components/templates/templates.data.js';

describe('effectiveConfig', () => {
  it('applies the RFC 7591 defaults to an empty confidential web config', () => {
    expect(effectiveConfig({}, 'confidential', 'web')).to.deep.equal({
      redirectUris: [],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      scopes: [],
      contacts: [],
      requirePkce: true,
      requirePushedAuthorizationRequests: false,
    });
  });

  it('defaults public clients to token endpoint auth method none', () => {
    expect(effectiveConfig({}, 'public', 'spa').tokenEndpointAuthMethod).to.equal('none');
  });

  it('always requires PKCE for public clients, whatever the config asks', () => {
    expect(effectiveConfig({ requirePkce: false }, 'public', 'native').requirePkce).to.equal(true);
    expect(effectiveConfig({ requirePkce: false }, 'confidential', 'web').requirePkce).to.equal(false);
  });

  it('defaults services to client_credentials without response types', () => {
    const config = effectiveConfig({}, 'confidential', 'service');
    expect(config.grantTypes).to.deep.equal(['client_credentials']);
    expect(config.responseTypes).to.deep.equal([]);
  });

  it('gives no code response type by default when the code grant is not used', () => {
    expect(effectiveConfig({ grantTypes: ['client_credentials'] }, 'confidential', 'web').responseTypes).to.deep.equal(
      [],
    );
  });

  it('keeps what the config states', () => {
    const config = effectiveConfig(
      {
        redirectUris: ['https://a.example/cb'],
        grantTypes: ['authorization_code', 'refresh_token'],
        responseTypes: ['code'],
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwksUri: 'https://a.example/jwks',
        scopes: ['openid'],
      },
      'confidential',
      'web',
    );
    expect(config).to.include({ tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://a.example/jwks' });
    expect(config.grantTypes).to.deep.equal(['authorization_code', 'refresh_token']);
    expect(config.scopes).to.deep.equal(['openid']);
  });

  it('does not change its input', () => {
    const input = { grantTypes: ['authorization_code'] };
    effectiveConfig(input, 'public', 'spa');
    expect(input).to.deep.equal({ grantTypes: ['authorization_code'] });
  });
});

describe('effectiveConfig and the config schema', () => {
  it('fills in only fields the schema knows, so effective configs stay valid responses', () => {
    const validate = validatorFor('https://gatehouse.dev/schemas/registration-config.schema.json');
    for (const t of TEMPLATES) {
      const config = effectiveConfig(t.defaults, t.clientType, t.applicationType);
      expect(validate(config), `${t.id}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
    expect(validate(effectiveConfig({}, 'public', 'native'))).to.equal(true);
  });
});
