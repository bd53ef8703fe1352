import { expect } from 'chai';
import { oidcModels } from '../support/oidc-models.js';

describe('idp: store models', () => {
  it('finds the models the installed oidc-provider stores through its adapter (the store contract runs for each)', () => {
    expect(oidcModels()).to.include.members([
      'AccessToken',
      'AuthorizationCode',
      'Client',
      'Grant',
      'Interaction',
      'RefreshToken',
      'RegistrationAccessToken',
      'Session',
    ]);
  });
});
