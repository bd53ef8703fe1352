import { expect } from 'chai';
import { clientTypeRules, platformPolicy } from '../../../../server/components/policy/platform-policy.js';

describe('platformPolicy', () => {
  it('forbids the implicit and password grants and every dangerous scheme', () => {
    expect(platformPolicy.grantTypes.forbidden).to.have.members(['implicit', 'password']);
    expect(platformPolicy.redirectUris.forbiddenSchemes).to.have.members([
      'javascript',
      'data',
      'vbscript',
      'file',
      'blob',
      'about',
    ]);
  });

  it('makes every application type belong to exactly one client type', () => {
    const all = clientTypeRules.flatMap((c) => c.applicationTypes.map((a) => a.applicationType));
    expect(all).to.have.members(['web', 'spa', 'native', 'service']).and.have.length(4);
  });

  it('lets public clients use none only, and confidential clients anything but none', () => {
    expect(clientTypeRules.find((c) => c.clientType === 'public')?.tokenEndpointAuthMethods).to.deep.equal(['none']);
    expect(clientTypeRules.find((c) => c.clientType === 'confidential')?.tokenEndpointAuthMethods).to.not.include(
      'none',
    );
  });

  it('is frozen all the way down and serialises to JSON', () => {
    expect(() => platformPolicy.redirectUris.forbiddenSchemes.push('https')).to.throw(TypeError);
    expect(JSON.parse(JSON.stringify(platformPolicy))).to.deep.equal(platformPolicy);
  });
});
