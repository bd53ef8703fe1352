import { expect } from 'chai';
import { createMemoryOrganizationRepository } from '../../../../server/components/organizations/organizations.repository.js';
import { isId } from '../../../../server/ids.js';

describe('memory organization repository', () => {
  it('creates an organization with a new org_ id and reads it back', async () => {
    const repo = createMemoryOrganizationRepository({ clock: () => new Date('2026-01-01T00:00:00Z') });
    const org = await repo.create({ name: 'Acme', plan: 'pro' });
    expect(isId('org', org.id)).to.equal(true);
    expect(await repo.get(org.id)).to.deep.equal({ id: org.id, name: 'Acme', plan: 'pro', createdAt: new Date('2026-01-01T00:00:00Z') });
  });

  it('returns null for an unknown id', async () => {
    expect(await createMemoryOrganizationRepository().get('org_0000000000000000')).to.equal(null);
  });

  it('refuses to create an id twice', async () => {
    const repo = createMemoryOrganizationRepository();
    await repo.create({ id: 'org_demo1234567890abcd', name: 'A', plan: 'free' });
    let error: unknown;
    await repo.create({ id: 'org_demo1234567890abcd', name: 'B', plan: 'free' }).catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
  });

  it('upserts idempotently and keeps the creation time', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const repo = createMemoryOrganizationRepository({ clock: () => now });
    await repo.upsert({ id: 'org_demo1234567890abcd', name: 'Demo', plan: 'free' });
    now = new Date('2026-02-01T00:00:00Z');
    const again = await repo.upsert({ id: 'org_demo1234567890abcd', name: 'Demo 2', plan: 'pro' });
    expect(again).to.deep.equal({ id: 'org_demo1234567890abcd', name: 'Demo 2', plan: 'pro', createdAt: new Date('2026-01-01T00:00:00Z') });
  });

  it('gets many by id in id order, leaving unknown ids out', async () => {
    const repo = createMemoryOrganizationRepository();
    const b = await repo.create({ id: 'org_bbbbbbbbbbbbbbbb', name: 'B', plan: 'free' });
    const a = await repo.create({ id: 'org_aaaaaaaaaaaaaaaa', name: 'A', plan: 'free' });
    const many = await repo.getMany([b.id, 'org_cccccccccccccccc', a.id, b.id]);
    expect(many.map((o) => o.id)).to.deep.equal([a.id, b.id]);
  });

  it('changes the plan and answers null for unknown organizations', async () => {
    const repo = createMemoryOrganizationRepository();
    const org = await repo.create({ name: 'A', plan: 'free' });
    expect((await repo.setPlan(org.id, 'enterprise'))?.plan).to.equal('enterprise');
    expect(await repo.setPlan('org_0000000000000000', 'pro')).to.equal(null);
  });

  it('hands out copies so callers cannot change what is stored', async () => {
    const repo = createMemoryOrganizationRepository();
    const org = await repo.create({ name: 'A', plan: 'free' });
    org.plan = 'enterprise';
    (await repo.get(org.id))!.name = 'changed';
    expect(await repo.get(org.id)).to.include({ name: 'A', plan: 'free' });
  });
});
