import { expect } from 'chai';
import { applySeed } from '../../../server/seed/apply-seed.js';
import { parseSeed } from '../../../server/seed/read-seed-file.js';
import { createMemoryStore } from '../../../server/store/memory-store.js';

const ORG = 'org_demo1234567890abcd';
const SEED = parseSeed(
  `
organizations: [{ id: ${ORG}, name: Demo, plan: pro }, { name: Named only, plan: free }]
grants:
  - { organizationId: ${ORG}, subject: alice, default: true }
  - { organizationId: ${ORG}, subject: bob, role: viewer }
registrations:
  - { organizationId: ${ORG}, name: Existing app, clientType: confidential, applicationType: web, policyProfileId: pp_standard,
      status: active, clientId: existing-1, config: { redirectUris: [https://app.example.com/cb], grantTypes: [authorization_code] } }
  - { organizationId: ${ORG}, name: A draft, clientType: public, applicationType: spa, policyProfileId: pp_standard, config: {} }
`,
  'seed.yaml',
);

describe('applySeed', () => {
  it('creates organizations, grants and registrations in any status through the repositories', async () => {
    const store = createMemoryStore();
    const summary = await applySeed(store, SEED, new Date('2026-01-01T00:00:00Z'));
    expect(summary).to.deep.equal({
      policyProfiles: 0,
      organizations: 2,
      grants: 2,
      registrations: { created: 2, updated: 0, unchanged: 0 },
    });
    expect((await store.organizations.get(ORG))?.plan).to.equal('pro');
    expect((await store.grants.defaultFor('alice'))?.organizationId).to.equal(ORG);
    expect(await store.grants.find('bob', ORG)).to.include({ isDefault: false, role: 'viewer' });
    // A grant the file gives no role is an owner's, as every grant was before roles.
    expect((await store.grants.find('alice', ORG))?.role).to.equal('owner');
    const regs = await store.registrations.list({ organizationId: ORG, limit: 10 });
    const active = regs.find((r) => r.name === 'Existing app');
    expect(active).to.include({ status: 'active', clientId: 'existing-1', revision: 1, createdBy: 'seed' });
    expect(regs.find((r) => r.name === 'A draft')?.status).to.equal('draft');
  });

  it('keeps a role an admin gave since when the file names none, and sets the one the file names', async () => {
    const store = createMemoryStore();
    await applySeed(store, SEED, new Date());
    await store.grants.grant({ organizationId: ORG, subject: 'alice', isDefault: true, role: 'developer' });
    await store.grants.grant({ organizationId: ORG, subject: 'bob', isDefault: false, role: 'owner' });
    await applySeed(store, SEED, new Date());
    expect((await store.grants.find('alice', ORG))?.role).to.equal('developer');
    expect((await store.grants.find('bob', ORG))?.role).to.equal('viewer');
  });

  it('is idempotent: applying the same file again changes nothing', async () => {
    const store = createMemoryStore();
    await applySeed(store, SEED, new Date('2026-01-01T00:00:00Z'));
    const before = await store.registrations.list({ organizationId: ORG, limit: 10 });
    const again = await applySeed(store, SEED, new Date('2026-02-01T00:00:00Z'));
    expect(again.registrations).to.deep.equal({ created: 0, updated: 0, unchanged: 2 });
    const after = await store.registrations.list({ organizationId: ORG, limit: 10 });
    expect(after).to.deep.equal(before);
  });

  it('updates a seeded registration whose file entry changed, bumping its revision and keeping its creation', async () => {
    const store = createMemoryStore();
    await applySeed(store, SEED, new Date('2026-01-01T00:00:00Z'));
    const changed = structuredClone(SEED);
    changed.registrations![0].status = 'suspended';
    const summary = await applySeed(store, changed, new Date('2026-02-01T00:00:00Z'));
    expect(summary.registrations).to.deep.equal({ created: 0, updated: 1, unchanged: 1 });
    const regs = await store.registrations.list({ organizationId: ORG, limit: 10 });
    const record = regs.find((r) => r.clientId === 'existing-1')!;
    expect(record).to.include({ status: 'suspended', revision: 2 });
    expect(record.createdAt.toISOString()).to.equal('2026-01-01T00:00:00.000Z');
  });
});
