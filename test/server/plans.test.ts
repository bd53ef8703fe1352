import { expect } from 'chai';
import { DEVICE_CODE_GRANT, planFor } from '../../server/plans.js';

const settings = { rateLimitFree: 60, rateLimitPro: 600, rateLimitEnterprise: 6000 };

describe('plans', () => {
  it('limits registrations to 5, 50 and unlimited', () => {
    expect(planFor('free').maxRegistrations).to.equal(5);
    expect(planFor('pro').maxRegistrations).to.equal(50);
    expect(planFor('enterprise').maxRegistrations).to.equal(null);
  });

  it('allows change sets from pro', () => {
    expect([planFor('free').changeSets, planFor('pro').changeSets, planFor('enterprise').changeSets]).to.deep.equal([
      false,
      true,
      true,
    ]);
  });

  it('offers client_credentials from pro and the device grant on enterprise only', () => {
    expect(planFor('free').grantTypes).to.not.include('client_credentials');
    expect(planFor('pro').grantTypes).to.include('client_credentials').and.not.include(DEVICE_CODE_GRANT);
    expect(planFor('enterprise').grantTypes).to.include(DEVICE_CODE_GRANT);
  });

  it('offers the fapi2 profile on enterprise only', () => {
    expect(planFor('pro').policyProfiles).to.not.include('pp_fapi2');
    expect(planFor('enterprise').policyProfiles).to.include('pp_fapi2');
  });

  it('takes the rate limits from the service settings', () => {
    expect(planFor('free').rateLimitPerMinute(settings)).to.equal(60);
    expect(planFor('pro').rateLimitPerMinute({ ...settings, rateLimitPro: 7 })).to.equal(7);
    expect(planFor('enterprise').rateLimitPerMinute(settings)).to.equal(6000);
  });

  it('cannot be changed by a caller', () => {
    expect(() => (planFor('free').grantTypes as string[]).push('password')).to.throw(TypeError);
  });
});
