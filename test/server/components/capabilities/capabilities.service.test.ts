import { expect } from 'chai';
import { buildCapabilities } from '../../../../server/components/capabilities/capabilities.service.js';
import type { Plan } from '../../../../server/components/organizations/organizations.model.js';
import { validateRegistration } from '../../../../server/components/policy/validate-registration.js';
import { KEY_BASED_AUTH_METHODS } from '../../../../server/components/policy/platform-policy.js';
import type { ApplicationType, ClientType } from '../../../../server/components/registrations/registrations.model.js';

const config = { rateLimitFree: 60, rateLimitPro: 600, rateLimitEnterprise: 6000 };
const caps = (plan: Plan, scopes: string[] = ['registrations:read']) =>
  buildCapabilities({
    organization: { id: 'org_aaaaaaaaaaaaaaaa', name: 'A', plan, createdAt: new Date(0) },
    scopes: new Set(scopes),
    role: 'developer',
    registrations: 3,
    config,
  });
const redirects: Record<ApplicationType, string[]> = {
  web: ['https://app.example.com/cb'],
  spa: ['https://app.example.com/cb'],
  native: ['http://127.0.0.1/cb'],
  service: [],
};

describe('buildCapabilities', () => {
  it('reports the free plan: 5 registrations, no change sets, no client_credentials, pp_standard only', () => {
    const c = caps('free');
    expect(c.plan).to.equal('free');
    expect(c.planLimits).to.deep.equal({
      maxRegistrations: 5,
      registrations: 3,
      changeSets: false,
      grantTypes: ['authorization_code', 'refresh_token'],
      policyProfiles: ['pp_standard'],
    });
    expect(c.policyProfiles.map((p) => p.id)).to.deep.equal(['pp_standard']);
    expect(c.templates.map((t) => t.id)).to.deep.equal(['tpl_spa', 'tpl_web', 'tpl_native']);
    expect(c.rateLimits).to.deep.equal({
      limit: 60,
      windowSeconds: 60,
      policy: '"free";q=60;w=60',
      partition: 'subject and organization',
    });
  });

  it('lists client types with their application and grant types for the plan', () => {
    const free = caps('free').clientTypes;
    expect(free.map((c) => c.clientType)).to.deep.equal(['public', 'confidential']);
    expect(free[1]?.applicationTypes.map((a) => a.applicationType)).to.deep.equal(['web']);
    const enterprise = caps('enterprise').clientTypes;
    expect(enterprise[0]?.tokenEndpointAuthMethods).to.deep.equal(['none']);
    expect(enterprise[0]?.requirePkce).to.equal(true);
    expect(enterprise[0]?.applicationTypes.find((a) => a.applicationType === 'native')?.grantTypes).to.include(
      'urn:ietf:params:oauth:grant-type:device_code',
    );
    expect(enterprise[1]?.applicationTypes.map((a) => a.applicationType)).to.deep.equal(['web', 'service']);
    expect(enterprise[1]?.grantTypes).to.include('client_credentials');
  });

  it('reports unlimited registrations and every profile on enterprise', () => {
    const c = caps('enterprise');
    expect(c.planLimits.maxRegistrations).to.equal(null);
    expect(c.policyProfiles.map((p) => p.id)).to.have.members(['pp_standard', 'pp_service', 'pp_fapi2']);
    expect(c.rateLimits.limit).to.equal(6000);
  });

  it('reports only the API scopes the token carries', () => {
    expect(caps('pro', ['registrations:read', 'openid', 'change_sets:write']).grantedScopes).to.deep.equal([
      'registrations:read',
      'change_sets:write',
    ]);
  });

  it('carries the platform policy and survives JSON', () => {
    const c = caps('pro');
    expect(c.platformPolicy.redirectUris.maxCount).to.equal(20);
    expect(JSON.parse(JSON.stringify(c)).platformPolicy).to.deep.equal(c.platformPolicy);
  });

  for (const plan of ['free', 'pro', 'enterprise'] as const) {
    it(`never advertises on ${plan} a grant type the policy would refuse`, () => {
      const c = caps(plan);
      for (const client of c.clientTypes) {
        for (const app of client.applicationTypes) {
          for (const grant of app.grantTypes) {
            const grantTypes = grant === 'refresh_token' ? ['authorization_code', 'refresh_token'] : [grant];
            const passing = c.policyProfiles.filter((profile) => {
              if (!profile.appliesTo.includes(client.clientType as ClientType)) return false;
              const method = profile.constraints.tokenEndpointAuthMethods.find((m) =>
                client.tokenEndpointAuthMethods.includes(m),
              );
              const problems = validateRegistration({
                plan,
                clientType: client.clientType as ClientType,
                applicationType: app.applicationType as ApplicationType,
                policyProfileId: profile.id,
                config: {
                  grantTypes,
                  redirectUris: grantTypes.includes('authorization_code')
                    ? redirects[app.applicationType as ApplicationType]
                    : [],
                  ...(method && { tokenEndpointAuthMethod: method }),
                  ...(method && KEY_BASED_AUTH_METHODS.includes(method) && { jwksUri: 'https://app.example.com/jwks' }),
                  ...(profile.constraints.requirePushedAuthorizationRequests && {
                    requirePushedAuthorizationRequests: true,
                  }),
                },
              });
              return problems.length === 0;
            });
            expect(passing, `${client.clientType}/${app.applicationType}/${grant}`).to.not.be.empty;
          }
        }
      }
    });
  }
});
