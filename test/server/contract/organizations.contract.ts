/**
 * The contract of OrganizationRepository and GrantRepository: every implementation (embedded, mongo) passes it.
 * `makeStore` returns a fresh, empty store per test.
 */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import { isId } from '../../../server/ids.js';

export type OrganizationStore = Pick<Store, 'organizations' | 'grants' | 'close'>;

const A = 'org_aaaaaaaaaaaaaaaa';
const B = 'org_bbbbbbbbbbbbbbbb';
const C = 'org_cccccccccccccccc';

export function organizationRepositoryContract(
  implementation: string,
  makeStore: () => Promise<OrganizationStore>,
): void {
  describe(`organization and grant repositories: ${implementation}`, () => {
    let store: OrganizationStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(() => store.close());

    describe('organizations', () => {
      it('creates an organization with a new org_ id and reads it back', async () => {
        const org = await store.organizations.create({ name: 'Acme', plan: 'pro' });
        expect(isId('org', org.id)).to.equal(true);
        expect(org.createdAt).to.be.instanceOf(Date);
        expect(await store.organizations.get(org.id)).to.deep.equal(org);
      });

      it('returns null for an unknown id', async () => {
        expect(await store.organizations.get(A)).to.equal(null);
      });

      it('refuses to create an id twice', async () => {
        await store.organizations.create({ id: A, name: 'A', plan: 'free' });
        const error = await store.organizations.create({ id: A, name: 'B', plan: 'free' }).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(Error);
        expect((await store.organizations.get(A))?.name).to.equal('A');
      });

      it('upserts idempotently and keeps the creation time', async () => {
        const first = await store.organizations.upsert({
          id: A,
          name: 'Demo',
          plan: 'free',
          createdAt: new Date('2026-01-01T00:00:00Z'),
        });
        const again = await store.organizations.upsert({ id: A, name: 'Demo 2', plan: 'pro' });
        expect(first.createdAt.toISOString()).to.equal('2026-01-01T00:00:00.000Z');
        expect(again).to.deep.equal({ id: A, name: 'Demo 2', plan: 'pro', createdAt: first.createdAt });
      });

      it('gets many by id in id order, leaving unknown ids out', async () => {
        await store.organizations.create({ id: B, name: 'B', plan: 'free' });
        await store.organizations.create({ id: A, name: 'A', plan: 'free' });
        expect((await store.organizations.getMany([B, C, A, B])).map((o) => o.id)).to.deep.equal([A, B]);
        expect(await store.organizations.getMany([])).to.deep.equal([]);
      });

      it('changes the plan and answers null for unknown organizations', async () => {
        await store.organizations.create({ id: A, name: 'A', plan: 'free' });
        expect((await store.organizations.setPlan(A, 'enterprise'))?.plan).to.equal('enterprise');
        expect((await store.organizations.get(A))?.plan).to.equal('enterprise');
        expect(await store.organizations.setPlan(C, 'pro')).to.equal(null);
      });

      it('hands out copies so callers cannot change what is stored', async () => {
        const org = await store.organizations.create({ id: A, name: 'A', plan: 'free' });
        org.plan = 'enterprise';
        (await store.organizations.get(A))!.name = 'changed';
        expect(await store.organizations.get(A)).to.include({ name: 'A', plan: 'free' });
      });
    });

    describe('grants', () => {
      it('grants access that find and listForSubject report, ordered by organization id', async () => {
        await store.grants.grant({ organizationId: B, subject: 'alice', isDefault: false });
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: false });
        expect(await store.grants.find('alice', A)).to.include({
          organizationId: A,
          subject: 'alice',
          isDefault: false,
        });
        expect((await store.grants.listForSubject('alice')).map((g) => g.organizationId)).to.deep.equal([A, B]);
        expect(await store.grants.find('bob', A)).to.equal(null);
        expect(await store.grants.listForSubject('bob')).to.deep.equal([]);
      });

      it('keeps one default per subject: marking a new default unmarks the old one', async () => {
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true });
        await store.grants.grant({ organizationId: B, subject: 'alice', isDefault: true });
        expect((await store.grants.defaultFor('alice'))?.organizationId).to.equal(B);
        expect((await store.grants.find('alice', A))?.isDefault).to.equal(false);
        expect(
          (await store.grants.listForSubject('alice')).filter((g) => g.isDefault).map((g) => g.organizationId),
        ).to.deep.equal([B]);
      });

      it('keeps one default even when two defaults are granted at once', async () => {
        await Promise.all([
          store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true }),
          store.grants.grant({ organizationId: B, subject: 'alice', isDefault: true }),
          store.grants.grant({ organizationId: C, subject: 'alice', isDefault: true }),
        ]);
        const defaults = (await store.grants.listForSubject('alice')).filter((g) => g.isDefault);
        expect(defaults).to.have.length(1);
        expect((await store.grants.defaultFor('alice'))?.organizationId).to.equal(defaults[0]?.organizationId);
      });

      it('unmarks the default when the same grant is given again without it', async () => {
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true });
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: false });
        expect(await store.grants.defaultFor('alice')).to.equal(null);
      });

      it('does not touch the defaults of other subjects', async () => {
        await store.grants.grant({ organizationId: A, subject: 'bob', isDefault: true });
        await store.grants.grant({ organizationId: B, subject: 'alice', isDefault: true });
        expect((await store.grants.defaultFor('bob'))?.organizationId).to.equal(A);
      });

      it('is idempotent and keeps the first grant time', async () => {
        const first = await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: false });
        const second = await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true });
        expect(second.createdAt.getTime()).to.equal(first.createdAt.getTime());
        expect(await store.grants.listForSubject('alice')).to.have.length(1);
      });

      it('gives a new grant without a role the owner role, and keeps a role until another one is given', async () => {
        expect((await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: false })).role).to.equal(
          'owner',
        );
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: false, role: 'viewer' });
        // Making it the default (no role given) leaves the role as it is.
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true });
        expect(await store.grants.find('alice', A)).to.include({ role: 'viewer', isDefault: true });
        expect((await store.grants.defaultFor('alice'))?.role).to.equal('viewer');
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true, role: 'developer' });
        expect((await store.grants.listForSubject('alice')).map((g) => g.role)).to.deep.equal(['developer']);
        expect(
          (await store.grants.grant({ organizationId: B, subject: 'bob', isDefault: false, role: 'viewer' })).role,
        ).to.equal('viewer');
      });

      it('revokes a grant, its default mark included, and reports whether one existed', async () => {
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true });
        expect(await store.grants.revoke({ organizationId: A, subject: 'alice' })).to.equal(true);
        expect(await store.grants.revoke({ organizationId: A, subject: 'alice' })).to.equal(false);
        expect(await store.grants.find('alice', A)).to.equal(null);
        expect(await store.grants.defaultFor('alice')).to.equal(null);
      });

      it('treats subjects and organization ids as opaque strings, never as query operators', async () => {
        await store.grants.grant({ organizationId: A, subject: 'alice', isDefault: true });
        expect(await store.grants.find('{"$ne":null}', A)).to.equal(null);
        expect(await store.grants.listForSubject('.*')).to.deep.equal([]);
        expect(await store.grants.defaultFor('{"$gt":""}')).to.equal(null);
      });
    });
  });
}
