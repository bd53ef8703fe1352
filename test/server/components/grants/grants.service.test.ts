import { expect } from 'chai';
import { createMemoryGrantRepository } from '../../../../server/components/grants/grants.repository.js';
import { grantAccess, revokeAccess } from '../../../../server/components/grants/grants.service.js';
import { createMemoryOrganizationRepository } from '../../../../server/components/organizations/organizations.repository.js';
import { AppError } from '../../../../lib/app-error.js';

async function setup() {
  const store = { organizations: createMemoryOrganizationRepository(), grants: createMemoryGrantRepository() };
  const a = await store.organizations.create({ id: 'org_aaaaaaaaaaaaaaaa', name: 'A', plan: 'free' });
  const b = await store.organizations.create({ id: 'org_bbbbbbbbbbbbbbbb', name: 'B', plan: 'pro' });
  return { store, a, b };
}

describe('API-access grants', () => {
  it('grants access that find and listForSubject then report', async () => {
    const { store, a, b } = await setup();
    await grantAccess(store, { organizationId: b.id, subject: 'alice' });
    await grantAccess(store, { organizationId: a.id, subject: 'alice' });
    expect(await store.grants.find('alice', a.id)).to.include({
      organizationId: a.id,
      subject: 'alice',
      isDefault: false,
    });
    expect((await store.grants.listForSubject('alice')).map((g) => g.organizationId)).to.deep.equal([a.id, b.id]);
    expect(await store.grants.find('bob', a.id)).to.equal(null);
  });

  it('keeps one default per subject: marking a new default unmarks the old one', async () => {
    const { store, a, b } = await setup();
    await grantAccess(store, { organizationId: a.id, subject: 'alice', isDefault: true });
    await grantAccess(store, { organizationId: b.id, subject: 'alice', isDefault: true });
    expect((await store.grants.defaultFor('alice'))?.organizationId).to.equal(b.id);
    expect((await store.grants.find('alice', a.id))?.isDefault).to.equal(false);
    expect((await store.grants.listForSubject('alice')).filter((g) => g.isDefault)).to.have.length(1);
  });

  it('does not touch the defaults of other subjects', async () => {
    const { store, a, b } = await setup();
    await grantAccess(store, { organizationId: a.id, subject: 'bob', isDefault: true });
    await grantAccess(store, { organizationId: b.id, subject: 'alice', isDefault: true });
    expect((await store.grants.defaultFor('bob'))?.organizationId).to.equal(a.id);
  });

  it('is idempotent and keeps the first grant time', async () => {
    const { store, a } = await setup();
    const first = await grantAccess(store, { organizationId: a.id, subject: 'alice' });
    const second = await grantAccess(store, { organizationId: a.id, subject: 'alice', isDefault: true });
    expect(second.createdAt.getTime()).to.equal(first.createdAt.getTime());
    expect(await store.grants.listForSubject('alice')).to.have.length(1);
  });

  it('refuses a grant on an unknown organization with not_found', async () => {
    const { store } = await setup();
    const error = await grantAccess(store, { organizationId: 'org_cccccccccccccccc', subject: 'alice' }).catch(
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AppError).and.include({ code: 'not_found', status: 404 });
  });

  it('refuses an empty subject', async () => {
    const { store, a } = await setup();
    const error = await grantAccess(store, { organizationId: a.id, subject: '' }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(AppError).and.include({ code: 'invalid_request' });
  });

  it('revokes access, the default included', async () => {
    const { store, a } = await setup();
    await grantAccess(store, { organizationId: a.id, subject: 'alice', isDefault: true });
    expect(await revokeAccess(store, { organizationId: a.id, subject: 'alice' })).to.equal(true);
    expect(await revokeAccess(store, { organizationId: a.id, subject: 'alice' })).to.equal(false);
    expect(await store.grants.find('alice', a.id)).to.equal(null);
    expect(await store.grants.defaultFor('alice')).to.equal(null);
  });

  it('keeps subjects that differ only by separators apart', async () => {
    const { store, a } = await setup();
    await grantAccess(store, { organizationId: a.id, subject: 'a"b' });
    expect(await store.grants.find('a', a.id)).to.equal(null);
    expect(await store.grants.find('a"b', a.id)).to.not.equal(null);
  });
});
