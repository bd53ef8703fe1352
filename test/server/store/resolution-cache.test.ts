/** The per-instance cache of organization resolution: reused within its TTL, cleared by this instance's own writes. */
import { expect } from 'chai';
import { createMemoryGrantRepository } from '../../../server/components/grants/grants.repository.js';
import { createMemoryOrganizationRepository } from '../../../server/components/organizations/organizations.repository.js';
import { withResolutionCache } from '../../../server/store/resolution-cache.js';

describe('resolution cache', () => {
  let now: number;
  let reads: number;
  function setUp(options: { maxEntries?: number } = {}) {
    now = 1_000_000;
    reads = 0;
    // The shared database: `grants` and `organizations` written directly are another instance's writes.
    const grants = createMemoryGrantRepository();
    const organizations = createMemoryOrganizationRepository();
    const counted = {
      grants: {
        ...grants,
        find: (subject: string, organizationId: string) => {
          reads += 1;
          return grants.find(subject, organizationId);
        },
      },
      organizations,
    };
    const cache = withResolutionCache(counted, { ttlMs: 1000, now: () => now, ...options });
    return { grants, organizations, cache };
  }

  it('reuses a grant within the TTL, then reads it again', async () => {
    const { grants, cache } = setUp();
    await grants.grant({ organizationId: 'org_1', subject: 'alice', isDefault: false });
    expect(await cache.reads.grant('alice', 'org_1')).to.include({ organizationId: 'org_1', subject: 'alice' });
    now += 999;
    expect(await cache.reads.grant('alice', 'org_1')).to.not.equal(null);
    expect(reads).to.equal(1);
    now += 1;
    await cache.reads.grant('alice', 'org_1');
    expect(reads).to.equal(2);
  });

  it('sees a grant revoked through this instance at once, and one revoked on another instance within the TTL', async () => {
    const { grants, cache } = setUp();
    await grants.grant({ organizationId: 'org_1', subject: 'alice', isDefault: false });
    await grants.grant({ organizationId: 'org_2', subject: 'alice', isDefault: false });
    await cache.reads.grant('alice', 'org_1');
    await cache.grants.revoke({ organizationId: 'org_1', subject: 'alice' });
    expect(await cache.reads.grant('alice', 'org_1')).to.equal(null);
    await cache.reads.grant('alice', 'org_2');
    await grants.revoke({ organizationId: 'org_2', subject: 'alice' });
    expect(await cache.reads.grant('alice', 'org_2')).to.not.equal(null);
    now += 1000;
    expect(await cache.reads.grant('alice', 'org_2')).to.equal(null);
  });

  it('never caches a missing grant: one given on another instance is seen by the next read', async () => {
    const { grants, cache } = setUp();
    expect(await cache.reads.grant('bob', 'org_1')).to.equal(null);
    await grants.grant({ organizationId: 'org_1', subject: 'bob', isDefault: true });
    expect(await cache.reads.grant('bob', 'org_1')).to.include({ subject: 'bob' });
    expect(await cache.reads.defaultGrant('bob')).to.include({ organizationId: 'org_1' });
  });

  it("applies this instance's plan change at once and another instance's within the TTL", async () => {
    const { organizations, cache } = setUp();
    const org = await organizations.create({ name: 'Acme', plan: 'free' });
    expect(await cache.reads.organization(org.id)).to.include({ plan: 'free' });
    await cache.organizations.setPlan(org.id, 'pro');
    expect(await cache.reads.organization(org.id)).to.include({ plan: 'pro' });
    await organizations.setPlan(org.id, 'enterprise');
    expect(await cache.reads.organization(org.id)).to.include({ plan: 'pro' });
    now += 1000;
    expect(await cache.reads.organization(org.id)).to.include({ plan: 'enterprise' });
  });

  it('hands out copies and keeps at most maxEntries, dropping the oldest', async () => {
    const { grants, cache } = setUp({ maxEntries: 2 });
    for (const org of ['org_1', 'org_2', 'org_3'])
      await grants.grant({ organizationId: org, subject: 'alice', isDefault: false });
    const first = (await cache.reads.grant('alice', 'org_1'))!;
    first.subject = 'mallory';
    expect(await cache.reads.grant('alice', 'org_1')).to.include({ subject: 'alice' });
    await cache.reads.grant('alice', 'org_2');
    await cache.reads.grant('alice', 'org_3');
    expect(reads).to.equal(3);
    await cache.reads.grant('alice', 'org_1');
    expect(reads).to.equal(4);
  });
});
