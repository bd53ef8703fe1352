/** The contract every audit repository honours: append-only, oldest first, filters by organization/registration/target. */
import { expect } from 'chai';
import type { AuditRepository } from '../../../server/components/audit/audit.repository.js';
import type { Store } from '../../../server/deps.js';
import type { NewAuditEntry } from '../../../server/components/audit/audit.model.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
const entry = (overrides: Partial<NewAuditEntry>): NewAuditEntry => ({
  organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA',
  targetType: 'registration',
  targetId: 'reg_AAAAAAAAAAAAAAAAAAAAAA',
  action: 'approve',
  actor: 'rita',
  from: 'pending_review',
  to: 'active',
  revision: 3,
  ...overrides,
});

export function auditContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`audit repository: ${name}`, () => {
    let repo: AuditRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      const store = await makeStore();
      repo = store.audit;
      close = () => store.close();
    });
    afterEach(() => close());

    it('offers append and list only: nothing can change or remove an entry', () => {
      expect(Object.keys(repo).sort()).to.deep.equal(['append', 'list']);
    });

    it('returns what was appended with an id and keeps every field as written', async () => {
      const written = await repo.append(entry({ at: at(1), reason: 'Looks fine' }));
      expect(written.id).to.match(/^aud_/);
      const [read] = await repo.list({ limit: 10 });
      expect(read).to.deep.equal(written);
      expect(read).to.include({
        actor: 'rita',
        from: 'pending_review',
        to: 'active',
        revision: 3,
        reason: 'Looks fine',
      });
      expect(read.at.toISOString()).to.equal(at(1).toISOString());
    });

    it('lists oldest first whatever the order of appends, and pages after a key', async () => {
      await repo.append(entry({ at: at(3), action: 'deprecate' }));
      await repo.append(entry({ at: at(1), action: 'approve' }));
      await repo.append(entry({ at: at(2), action: 'suspend' }));
      const all = await repo.list({ limit: 10 });
      expect(all.map((e) => e.action)).to.deep.equal(['approve', 'suspend', 'deprecate']);
      const rest = await repo.list({ limit: 10, after: { at: all[0].at, id: all[0].id } });
      expect(rest.map((e) => e.action)).to.deep.equal(['suspend', 'deprecate']);
      expect(await repo.list({ limit: 1 })).to.have.length(1);
    });

    it("filters by organization, and a registration's history includes its change sets", async () => {
      await repo.append(entry({ at: at(1) }));
      await repo.append(
        entry({
          at: at(2),
          targetType: 'change_set',
          targetId: 'cs_AAAAAAAAAAAAAAAAAAAAAA',
          registrationId: 'reg_AAAAAAAAAAAAAAAAAAAAAA',
        }),
      );
      await repo.append(entry({ at: at(3), targetId: 'reg_BBBBBBBBBBBBBBBBBBBBBB' }));
      await repo.append(entry({ at: at(4), organizationId: 'org_BBBBBBBBBBBBBBBBBBBBBB' }));
      const ofRegistration = await repo.list({
        organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA',
        registrationId: 'reg_AAAAAAAAAAAAAAAAAAAAAA',
        limit: 10,
      });
      expect(ofRegistration.map((e) => e.targetType)).to.deep.equal(['registration', 'change_set']);
      expect(await repo.list({ organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA', limit: 10 })).to.have.length(3);
      expect(await repo.list({ targetId: 'reg_BBBBBBBBBBBBBBBBBBBBBB', limit: 10 })).to.have.length(1);
    });

    it('hands out copies: changing a returned entry changes nothing stored', async () => {
      const written = await repo.append(entry({ at: at(1) }));
      written.to = 'rejected';
      const [read] = await repo.list({ limit: 10 });
      read.actor = 'mallory';
      expect((await repo.list({ limit: 10 }))[0]).to.include({ to: 'active', actor: 'rita' });
    });
  });
}
