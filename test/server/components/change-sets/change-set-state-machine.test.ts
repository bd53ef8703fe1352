import { expect } from 'chai';
import type { ChangeSet } from '../../../../server/components/change-sets/change-sets.model.js';
import { checkChangeSet } from '../../../../server/components/change-sets/change-set-state-machine.js';

const changeSet = (createdBy: string) =>
  ({ id: 'cs_0000000000000001', status: 'pending_review', createdBy }) as unknown as ChangeSet;
const as = (role: 'owner' | 'developer' | 'viewer') => ({
  scopes: new Set(['change_sets:write']),
  role,
  subject: 'alice',
  lockHolder: 'cs_0000000000000001',
});

describe('the change-set transitions by role', () => {
  it('let an owner withdraw any change set, and a developer only the ones it proposed', () => {
    expect(checkChangeSet('withdraw', changeSet('bob'), as('owner'))).to.equal(undefined);
    expect(checkChangeSet('withdraw', changeSet('alice'), as('developer'))).to.equal(undefined);
  });

  it("refuse a developer another subject's change set, saying so in words about change sets", () => {
    const refused = checkChangeSet('withdraw', changeSet('bob'), as('developer'));
    expect(refused?.code).to.equal('forbidden');
    expect(refused?.message).to.equal(
      'A developer may withdraw only change sets it created; this one was created by another subject (ask an owner).',
    );
  });

  it('refuse a viewer, naming what it asked for', () => {
    const refused = checkChangeSet('withdraw', changeSet('alice'), as('viewer'));
    expect(refused?.message).to.equal(
      'Your role in this organization (viewer) only reads; withdraw change set needs developer or owner.',
    );
  });
});
