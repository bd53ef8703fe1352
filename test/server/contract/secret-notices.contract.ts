/** The secret notice repository contract: notices come due once their bucket has ended, each bucket once. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import type {
  SecretNotice,
  SecretNoticeRepository,
} from '../../../server/components/secrets/secret-notices.repository.js';
import { ORG_A } from './fixtures.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);
const at = (minutes: number) => new Date(T0 + minutes * MINUTE);

const notice = (registrationId: string, minutes: number): SecretNotice => ({
  organizationId: ORG_A,
  registrationId,
  type: 'secret.expiring',
  at: at(minutes),
  expiresAt: at(minutes + 1440),
});

export function secretNoticesContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`secret notice repository: ${name}`, () => {
    let repo: SecretNoticeRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      const store = await makeStore();
      repo = store.secretNotices;
      close = () => store.close();
    });
    afterEach(() => close());

    it('gives the notices of the buckets that ended since it last looked, once each', async () => {
      expect(await repo.due(at(0), 10), 'the first look starts now').to.equal(null);
      await repo.schedule([notice('reg_A', 5), notice('reg_B', 25), notice('reg_C', 9)]);
      expect(await repo.due(at(9), 10), 'the first bucket has not ended').to.equal(null);
      const first = await repo.due(at(21), 10);
      expect(first?.notices.map((n) => n.registrationId).sort()).to.deep.equal(['reg_A', 'reg_C']);
      expect(first?.notices.find((n) => n.registrationId === 'reg_A')).to.deep.equal(notice('reg_A', 5));
      await repo.taken(first!.next);
      expect(await repo.due(at(29), 10)).to.equal(null);
      const second = await repo.due(at(45), 1);
      expect(second?.notices.map((n) => n.registrationId)).to.deep.equal(['reg_B']);
      await repo.taken(second!.next);
      expect((await repo.due(at(45), 10))?.notices).to.deep.equal([]);
    });
  });
}
