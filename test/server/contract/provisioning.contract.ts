/** The provisioning repository contract: the outbox (enqueue once, claim with a lease, settle, retry) and provisioned clients. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import type { ProvisioningRepository } from '../../../server/components/provisioning/provisioning.repository.js';

const ORG = 'org_AAAAAAAAAAAAAAAAAAAAAA';
const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

export function provisioningContract(name: string, makeStore: () => Promise<Store>): void {
  const make = async () => {
    const store = await makeStore();
    return { repo: store.provisioning, close: () => store.close() };
  };
  describe(`provisioning repository: ${name}`, () => {
    let repo: ProvisioningRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ repo, close } = await make());
    });
    afterEach(() => close());

    const enqueue = (registrationId: string, kind: 'register' | 'update' | 'delete', revision: number, s: number) =>
      repo.enqueue({ organizationId: ORG, registrationId, kind, revision, now: t(s) });

    it('enqueues a decision once however often it is enqueued', async () => {
      const first = await enqueue('reg_A', 'register', 2, 1);
      const again = await enqueue('reg_A', 'register', 2, 5);
      expect(again).to.deep.equal(first);
      expect(first).to.include({ status: 'pending', attempts: 0, kind: 'register', revision: 2 });
      expect(await repo.listSteps(ORG, 'reg_A')).to.have.length(1);
    });

    it('claims the oldest due step once, counting the attempt, and nothing that is not due', async () => {
      await enqueue('reg_B', 'register', 2, 2);
      await enqueue('reg_A', 'register', 2, 1);
      expect(await repo.claimDue(t(0), t(60))).to.equal(null);
      const claimed = await repo.claimDue(t(3), t(60));
      expect(claimed).to.include({ registrationId: 'reg_A', status: 'in_progress', attempts: 1 });
      const next = await repo.claimDue(t(3), t(60));
      expect(next).to.include({ registrationId: 'reg_B' });
      expect(await repo.claimDue(t(3), t(60))).to.equal(null);
    });

    it('takes back a claimed step whose lease ran out (its worker died)', async () => {
      await enqueue('reg_A', 'register', 2, 1);
      await repo.claimDue(t(1), t(10));
      expect(await repo.claimDue(t(5), t(20))).to.equal(null);
      expect(await repo.claimDue(t(11), t(30))).to.include({ attempts: 2, status: 'in_progress' });
    });

    it('reschedules, fails and completes claimed steps; an admin retry sends a failed step back', async () => {
      const step = await enqueue('reg_A', 'register', 2, 1);
      await repo.claimDue(t(1), t(60));
      await repo.settle(step.id, { status: 'pending', now: t(2), retryAt: t(10), error: 'unreachable' });
      expect(await repo.claimDue(t(9), t(60))).to.equal(null);
      await repo.claimDue(t(10), t(60));
      await repo.settle(step.id, { status: 'failed', now: t(11), error: 'refused' });
      const [failed] = await repo.listSteps(ORG, 'reg_A');
      expect(failed).to.include({ status: 'failed', lastError: 'refused', attempts: 2 });
      expect(await repo.claimDue(t(100), t(160))).to.equal(null);
      expect(await repo.retry(step.id, t(101))).to.equal(true);
      expect(await repo.retry(step.id, t(101))).to.equal(false);
      await repo.claimDue(t(101), t(160));
      await repo.settle(step.id, { status: 'done', now: t(102) });
      const [done] = await repo.listSteps(ORG, 'reg_A');
      expect(done.status).to.equal('done');
      expect(done).not.to.have.property('lastError');
      expect(done).not.to.have.property('leaseUntil');
    });

    it('stores a provisioned client per registration, within its organization', async () => {
      const client = {
        registrationId: 'reg_A',
        organizationId: ORG,
        clientId: 'as-client-1',
        registrationClientUri: 'https://as.example/register/as-client-1',
        registrationAccessTokenEncrypted: 'v1.a.b.c',
        revision: 3,
        createdAt: t(1),
        updatedAt: t(1),
      };
      await repo.saveClient(client);
      expect(await repo.getClient(ORG, 'reg_A')).to.deep.equal(client);
      expect(await repo.getClient('org_BBBBBBBBBBBBBBBBBBBBBB', 'reg_A')).to.equal(null);
      await repo.saveClient({ ...client, revision: 4, deletedAt: t(5), updatedAt: t(5) });
      expect(await repo.getClient(ORG, 'reg_A')).to.deep.equal({
        ...client,
        revision: 4,
        deletedAt: t(5),
        updatedAt: t(5),
      });
    });
  });
}
