import { expect } from 'chai';
import { validatorFor } from '../../../../lib/json-schema.js';
import { POLICY_PROFILES } from '../../../../server/components/policy-profiles/policy-profiles.data.js';
import {
  clientTypeRules,
  GRANT_TYPES,
  platformPolicy,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from '../../../../server/components/policy/platform-policy.js';

const schema = validatorFor('https://gatehouse.dev/schemas/api/policy-profile.schema.json');

describe('policy profile data', () => {
  it('holds exactly pp_standard, pp_fapi2 and pp_service', () => {
    expect(POLICY_PROFILES.map((p) => p.id)).to.have.members(['pp_standard', 'pp_fapi2', 'pp_service']);
  });

  for (const profile of POLICY_PROFILES) {
    it(`${profile.id} is valid against policy-profile.schema.json`, () => {
      expect(schema(profile), JSON.stringify(schema.errors)).to.equal(true);
    });

    it(`${profile.id} names only known, non-forbidden grant types and known auth methods`, () => {
      for (const g of profile.constraints.grantTypes) {
        expect(GRANT_TYPES).to.include(g);
        expect(platformPolicy.grantTypes.forbidden).to.not.include(g);
      }
      for (const m of profile.constraints.tokenEndpointAuthMethods) expect(TOKEN_ENDPOINT_AUTH_METHODS).to.include(m);
    });

    it(`${profile.id} applies to client types that own its application types`, () => {
      const owners = profile.constraints.applicationTypes.map(
        (a) => clientTypeRules.find((c) => c.applicationTypes.some((r) => r.applicationType === a))?.clientType,
      );
      for (const owner of owners) expect(profile.appliesTo).to.include(owner);
    });
  }

  it('cannot be changed at run time', () => {
    expect(() => POLICY_PROFILES[0].constraints.grantTypes.push('password')).to.throw(TypeError);
  });
});
