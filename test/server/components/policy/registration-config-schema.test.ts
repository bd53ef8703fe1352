import { expect } from 'chai';
import { toFieldErrors, validatorFor } from '../../../../lib/json-schema.js';
import { platformPolicy } from '../../../../server/components/policy/platform-policy.js';

/** schemas/registration-config.schema.json, which every body schema with a `config` refers to. */
const validate = validatorFor('https://gatehouse.dev/schemas/registration-config.schema.json');
const paths = (value: unknown) => (validate(value) ? [] : toFieldErrors(validate.errors, 'config').map((e) => e.path));

describe('registration-config.schema.json (structural limits, drafts included)', () => {
  it('accepts an empty draft and a full config', () => {
    expect(paths({})).to.deep.equal([]);
    expect(
      paths({
        redirectUris: ['https://a.example/cb'],
        postLogoutRedirectUris: ['https://a.example/bye'],
        grantTypes: ['authorization_code', 'refresh_token'],
        responseTypes: ['code'],
        tokenEndpointAuthMethod: 'private_key_jwt',
        scopes: ['openid', 'registrations:read'],
        clientUri: 'https://a.example',
        logoUri: 'https://a.example/logo.png',
        contacts: ['ops@a.example'],
        jwks: { keys: [{ kty: 'EC', kid: 'k1', crv: 'P-256', x: 'x', y: 'y' }] },
        requirePkce: true,
        requirePushedAuthorizationRequests: true,
      }),
    ).to.deep.equal([]);
  });

  it('refuses 10 000 redirect URIs', () => {
    expect(paths({ redirectUris: Array.from({ length: 10_000 }, (_, i) => `https://a.example/${i}`) })).to.deep.equal([
      'config.redirectUris',
    ]);
  });

  it('refuses an overlong redirect URI', () => {
    expect(paths({ redirectUris: [`https://a.example/${'a'.repeat(3000)}`] })).to.deep.equal([
      'config.redirectUris[0]',
    ]);
  });

  it('refuses unknown fields and values outside the RFC vocabularies', () => {
    expect(paths({ status: 'active' })).to.deep.equal(['config.status']);
    expect(paths({ grantTypes: ['magic'], tokenEndpointAuthMethod: 'whatever' })).to.have.members([
      'config.grantTypes[0]',
      'config.tokenEndpointAuthMethod',
    ]);
  });

  it('refuses scopes with spaces and non-strings where strings belong', () => {
    expect(paths({ scopes: ['a b'], redirectUris: [{ $gt: '' }] })).to.have.members([
      'config.scopes[0]',
      'config.redirectUris[0]',
    ]);
  });

  it('leaves room for the submit-time policy: its caps are at most the structural ones', () => {
    const schema = validate.schema as {
      properties: Record<string, { maxItems?: number; items?: { maxLength?: number } }>;
    };
    expect(platformPolicy.redirectUris.maxCount).to.be.at.most(schema.properties.redirectUris.maxItems!);
    expect(platformPolicy.redirectUris.maxLength).to.equal(schema.properties.redirectUris.items!.maxLength);
    expect(platformPolicy.scopes.maxCount).to.be.at.most(schema.properties.scopes.maxItems!);
    expect(platformPolicy.contacts.maxCount).to.be.at.most(schema.properties.contacts.maxItems!);
  });
});
