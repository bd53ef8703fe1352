/**
 * Policy profiles declared in the seed file: listed and read like the built-in ones, offered on the plans they name
 * (by default those of the profile they are based on), and enforced at submit like any profile.
 */
import { expect } from 'chai';
import { declarePolicyProfiles } from '../../../../server/components/policy-profiles/declared-policy-profiles.js';
import { applySeed } from '../../../../server/seed/apply-seed.js';
import { parseSeed } from '../../../../server/seed/read-seed-file.js';
import { startService, type ServiceHarness } from '../../../support/service-harness.js';
import { expectConforms } from '../../api/api-fixtures.js';

describe('policy profiles declared in the seed file', () => {
  let h: ServiceHarness;
  let token: string;

  before(async () => {
    h = await startService({ env: { LOG_LEVEL: 'silent' } });
    token = `Bearer ${await h.token()}`;
    const seed = parseSeed(
      `
policyProfiles:
  - { id: pp_short_secrets, name: Short-lived secrets, basedOn: pp_service,
      constraints: { maxSecretLifetimeDays: 1, maxSecretGraceSeconds: 3600 } }
  - { id: pp_everyone, name: Everyone, basedOn: pp_standard, plans: [free] }
`,
      'seed.yaml',
    );
    expect((await applySeed(h.deps.store, seed, new Date())).policyProfiles).to.equal(2);
  });
  after(async () => {
    declarePolicyProfiles([]);
    await h.close();
  });

  it('reads a declared profile with what it overrides and what it takes from the profile it is based on', async () => {
    const org = await h.createOrganization('pro');
    const res = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles/pp_short_secrets`)
      .set('Authorization', token);
    expectConforms(res);
    expect(res.body.appliesTo).to.deep.equal(['confidential']);
    expect(res.body.constraints).to.include({
      redirectUris: 'forbidden',
      maxSecretLifetimeDays: 1,
      maxSecretGraceSeconds: 3600,
    });
    const list = await h.request
      .get(`/api/v1/organizations/${org.id}/policy-profiles?limit=100`)
      .set('Authorization', token);
    expect(list.body.data.map((p: { id: string }) => p.id)).to.include.members(['pp_short_secrets', 'pp_everyone']);
  });

  it('offers a declared profile on the plans of the profile it is based on, unless it names its own', async () => {
    const free = await h.createOrganization('free');
    const pro = await h.createOrganization('pro');
    const profilesOf = async (organizationId: string) =>
      (await h.request.get(`/api/v1/organizations/${organizationId}/capabilities`).set('Authorization', token)).body
        .planLimits.policyProfiles as string[];
    expect(await profilesOf(free.id)).to.deep.equal(['pp_standard', 'pp_everyone']);
    expect(await profilesOf(pro.id)).to.deep.equal(['pp_standard', 'pp_service', 'pp_short_secrets']);
  });

  it('lets a registration under a declared profile be submitted, and refuses it on a plan without the profile', async () => {
    const body = {
      name: 'Batch job',
      clientType: 'confidential',
      applicationType: 'service',
      policyProfileId: 'pp_short_secrets',
      config: { grantTypes: ['client_credentials'], tokenEndpointAuthMethod: 'client_secret_basic' },
    };
    for (const [plan, status] of [
      ['pro', 200],
      ['free', 422],
    ] as const) {
      const org = await h.createOrganization(plan);
      const created = await h.request
        .post(`/api/v1/organizations/${org.id}/registrations`)
        .set('Authorization', token)
        .send(body);
      expect(created.status, plan).to.equal(201);
      const submitted = await h.request
        .post(`/api/v1/organizations/${org.id}/registrations/${created.body.id}/actions/submit`)
        .set('Authorization', token);
      expect(submitted.status, `${plan}: ${JSON.stringify(submitted.body)}`).to.equal(status);
    }
  });
});
