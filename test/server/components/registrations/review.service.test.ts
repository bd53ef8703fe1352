/** Reviewer transitions as service functions: the same table, conditional writes, separation of duties. */
import { expect } from 'chai';
import {
  createRegistration,
  submitRegistration,
} from '../../../../server/components/registrations/registrations.service.js';
import { decideRegistration } from '../../../../server/components/registrations/review.service.js';
import { proposeChangeSet, withdrawChangeSet } from '../../../../server/components/change-sets/change-sets.service.js';
import { decideChangeSet } from '../../../../server/components/change-sets/change-set-review.service.js';
import { domain, rejection } from './domain-fixtures.js';

const VALID = { name: 'Reviewed app', templateId: 'tpl_web', config: { redirectUris: ['https://app.example.com/cb'] } };

async function pending() {
  const setup = await domain('pro');
  const record = await createRegistration(setup.deps, setup.context, VALID);
  await submitRegistration(setup.deps, setup.context, record.id, {});
  return { ...setup, id: record.id, organizationId: setup.context.organization.id };
}

async function active() {
  const setup = await pending();
  await decideRegistration(setup.deps, 'approve', {
    organizationId: setup.organizationId,
    id: setup.id,
    reviewer: 'bob',
  });
  return setup;
}

describe('review service', () => {
  it('approves a pending registration and assigns a clientId', async () => {
    const { deps, id, organizationId } = await pending();
    const approved = await decideRegistration(deps, 'approve', { organizationId, id, reviewer: 'bob' });
    expect(approved).to.include({ status: 'active', decidedBy: 'bob' });
    expect(approved.clientId).to.match(/^client_[0-9A-Za-z]{16,}$/);
  });

  it('refuses to let the submitter approve their own submission', async () => {
    const { deps, id, organizationId } = await pending();
    const error = await rejection(decideRegistration(deps, 'approve', { organizationId, id, reviewer: 'alice' }));
    expect(error.message).to.contain('separation of duties');
    expect((await deps.store.registrations.get(organizationId, id))?.status).to.equal('pending_review');
  });

  it('follows the table: reject, request changes, suspend, unsuspend, deprecate, and refuses the rest with 409', async () => {
    const a = await pending();
    expect(
      (
        await decideRegistration(a.deps, 'reject', {
          organizationId: a.organizationId,
          id: a.id,
          reviewer: 'bob',
          reason: 'No.',
        })
      ).status,
    ).to.equal('rejected');
    const b = await pending();
    expect(
      (
        await decideRegistration(b.deps, 'request_changes', {
          organizationId: b.organizationId,
          id: b.id,
          reviewer: 'bob',
          reason: 'Fix it.',
        })
      ).status,
    ).to.equal('changes_requested');
    const c = await active();
    const input = { organizationId: c.organizationId, id: c.id, reviewer: 'bob' };
    expect((await decideRegistration(c.deps, 'suspend', input)).status).to.equal('suspended');
    expect((await rejection(decideRegistration(c.deps, 'suspend', input))).code).to.equal('invalid_transition');
    expect((await decideRegistration(c.deps, 'unsuspend', input)).status).to.equal('active');
    expect((await decideRegistration(c.deps, 'deprecate', input)).status).to.equal('deprecated');
    expect((await rejection(decideRegistration(c.deps, 'approve', input))).code).to.equal('invalid_transition');
    expect(
      (
        await rejection(
          decideRegistration(c.deps, 'approve', { ...input, organizationId: 'org_0000000000000000Other' }),
        )
      ).code,
    ).to.equal('not_found');
  });

  it('answers 412 when the reviewer decided on a stale revision', async () => {
    const { deps, id, organizationId } = await pending();
    const error = await rejection(
      decideRegistration(deps, 'approve', { organizationId, id, reviewer: 'bob', revisionIn: [1] }),
    );
    expect([error.status, error.code]).to.deep.equal([412, 'precondition_failed']);
  });

  describe('change sets', () => {
    it('applies an approved change set to the registration and frees the lock', async () => {
      const { deps, context, id, organizationId } = await active();
      const changeSet = await proposeChangeSet(deps, context, id, {
        changes: { redirectUris: ['https://app.example.com/new'] },
      });
      const approved = await decideChangeSet(deps, 'approve', {
        organizationId,
        registrationId: id,
        changeSetId: changeSet.id,
        reviewer: 'bob',
      });
      expect(approved).to.include({ status: 'approved', decidedBy: 'bob' });
      const registration = await deps.store.registrations.get(organizationId, id);
      expect(registration?.config.redirectUris).to.deep.equal(['https://app.example.com/new']);
      expect(registration?.revision).to.equal(changeSet.baseRevision + 1);
      expect(registration).to.not.have.property('pendingChangeSetId');
    });

    it('refuses a stale change set and one proposed by the reviewer', async () => {
      const { deps, context, id, organizationId } = await active();
      const changeSet = await proposeChangeSet(deps, context, id, { changes: { contacts: ['a@example.com'] } });
      const own = await rejection(
        decideChangeSet(deps, 'approve', {
          organizationId,
          registrationId: id,
          changeSetId: changeSet.id,
          reviewer: 'alice',
        }),
      );
      expect(own.message).to.contain('separation of duties');
      await decideRegistration(deps, 'suspend', { organizationId, id, reviewer: 'carol' });
      await decideRegistration(deps, 'unsuspend', { organizationId, id, reviewer: 'carol' });
      const stale = await rejection(
        decideChangeSet(deps, 'approve', {
          organizationId,
          registrationId: id,
          changeSetId: changeSet.id,
          reviewer: 'bob',
        }),
      );
      expect(stale.code).to.equal('conflict');
      const registration = await deps.store.registrations.get(organizationId, id);
      expect(registration?.config.contacts).to.equal(undefined);
      expect((await deps.store.changeSets.get(organizationId, id, changeSet.id))?.status).to.equal('pending_review');
    });

    it('lets exactly one of a racing approval and withdrawal win, keeping registration and change set consistent', async () => {
      for (let round = 0; round < 5; round += 1) {
        const { deps, context, id, organizationId } = await active();
        const changeSet = await proposeChangeSet(deps, context, id, { changes: { contacts: ['race@example.com'] } });
        const [approval, withdrawal] = await Promise.allSettled([
          decideChangeSet(deps, 'approve', {
            organizationId,
            registrationId: id,
            changeSetId: changeSet.id,
            reviewer: 'bob',
          }),
          withdrawChangeSet(deps, context, id, changeSet.id, {}),
        ]);
        expect([approval.status, withdrawal.status].filter((s) => s === 'fulfilled')).to.have.length(1);
        const stored = await deps.store.changeSets.get(organizationId, id, changeSet.id);
        const registration = await deps.store.registrations.get(organizationId, id);
        expect(registration?.config.contacts).to.deep.equal(
          stored?.status === 'approved' ? ['race@example.com'] : undefined,
        );
        expect(stored?.status).to.equal(approval.status === 'fulfilled' ? 'approved' : 'withdrawn');
        expect(registration).to.not.have.property('pendingChangeSetId');
      }
    });

    it('rejects a change set and lets a new one be proposed', async () => {
      const { deps, context, id, organizationId } = await active();
      const first = await proposeChangeSet(deps, context, id, { changes: { contacts: ['a@example.com'] } });
      const blocked = await rejection(
        proposeChangeSet(deps, context, id, { changes: { contacts: ['b@example.com'] } }),
      );
      expect([blocked.status, blocked.code]).to.deep.equal([409, 'conflict']);
      expect(
        (
          await decideChangeSet(deps, 'reject', {
            organizationId,
            registrationId: id,
            changeSetId: first.id,
            reviewer: 'bob',
            reason: 'No.',
          })
        ).status,
      ).to.equal('rejected');
      const second = await proposeChangeSet(deps, context, id, { changes: { contacts: ['b@example.com'] } });
      expect(second.status).to.equal('pending_review');
      await withdrawChangeSet(deps, context, id, second.id, {});
      expect(
        (
          await rejection(
            decideChangeSet(deps, 'approve', {
              organizationId,
              registrationId: id,
              changeSetId: second.id,
              reviewer: 'bob',
            }),
          )
        ).code,
      ).to.equal('invalid_transition');
    });
  });
});
