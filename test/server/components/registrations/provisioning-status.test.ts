/** The self-service read's provisioning status: none without a query before the first approval, the steps' status after. */
import { expect } from 'chai';
import { provisioningStatusOf } from '../../../../server/components/registrations/provisioning-status.js';
import type { Store } from '../../../../server/deps.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';

const ORG = 'org_0000000000000001';
const REG = 'reg_0000000000000001';

describe('provisioningStatusOf', () => {
  it('answers none for a registration never approved without reading the provisioning store', async () => {
    const unreadable = {
      provisioning: new Proxy({} as Store['provisioning'], {
        get() {
          throw new Error('the provisioning store was read');
        },
      }),
    };
    for (const status of ['draft', 'pending_review', 'changes_requested', 'rejected'] as const)
      expect(await provisioningStatusOf(unreadable, { organizationId: ORG, id: REG, status })).to.equal('none');
  });

  it('reads the steps of an approved registration: none without any, pending while one is not done', async () => {
    const store = createMemoryStore();
    const record = { organizationId: ORG, id: REG, status: 'active' as const };
    expect(await provisioningStatusOf(store, record)).to.equal('none');
    await store.provisioning.enqueue({
      organizationId: ORG,
      registrationId: REG,
      kind: 'register',
      revision: 3,
      now: new Date(),
    });
    expect(await provisioningStatusOf(store, record)).to.equal('pending');
    await store.close();
  });
});
