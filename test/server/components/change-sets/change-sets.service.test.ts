/** Proposing change sets: plan gating, one open at a time, policy on the resulting config, bad input refused. */
import { expect } from 'chai';
import {
  createRegistration,
  submitRegistration,
} from '../../../../server/components/registrations/registrations.service.js';
import { decideRegistration } from '../../../../server/components/registrations/review.service.js';
import { proposeChangeSet } from '../../../../server/components/change-sets/change-sets.service.js';
import { domain, rejection } from '../registrations/domain-fixtures.js';

async function activeOn(plan: 'free' | 'pro') {
  const setup = await domain(plan);
  const record = await createRegistration(setup.deps, setup.context, {
    name: 'Live',
    templateId: 'tpl_web',
    config: { redirectUris: ['https://app.example.com/cb'] },
  });
  await submitRegistration(setup.deps, setup.context, record.id, {});
  await decideRegistration(setup.deps, 'approve', {
    organizationId: setup.context.organization.id,
    id: record.id,
    reviewer: 'bob',
  });
  const stored = await setup.deps.store.registrations.get(setup.context.organization.id, record.id);
  if (!stored) throw new Error('setup failed');
  return { ...setup, registration: stored };
}

describe('change-sets service', () => {
  it('records the registration revision it is based on and holds the registration lock', async () => {
    const { deps, context, registration } = await activeOn('pro');
    const changeSet = await proposeChangeSet(deps, context, registration.id, {
      changes: { contacts: ['ops@example.com'] },
    });
    const locked = await deps.store.registrations.get(context.organization.id, registration.id);
    expect(changeSet).to.include({
      status: 'pending_review',
      createdBy: 'alice',
      baseRevision: registration.revision + 1,
    });
    expect(locked).to.include({ pendingChangeSetId: changeSet.id, revision: changeSet.baseRevision });
    expect(locked?.config).to.deep.equal(registration.config);
  });

  it('refuses on a plan without change sets with 403 plan_restricted', async () => {
    const { deps, context, registration } = await activeOn('free');
    const error = await rejection(
      proposeChangeSet(deps, context, registration.id, { changes: { contacts: ['ops@example.com'] } }),
    );
    expect([error.status, error.code]).to.deep.equal([403, 'plan_restricted']);
  });

  it('refuses a change that would break the policy, naming the changed field', async () => {
    const { deps, context, registration } = await activeOn('pro');
    const error = await rejection(
      proposeChangeSet(deps, context, registration.id, { changes: { redirectUris: ['http://evil.example.com/cb'] } }),
    );
    expect(error.code).to.equal('validation_failed');
    expect(error.fields?.map((f) => f.path)).to.include('changes.redirectUris[0]');
    expect(await deps.store.registrations.get(context.organization.id, registration.id)).to.deep.equal(registration);
  });

  it('refuses unknown fields, empty changes and operator payloads, leaving the registration unchanged', async () => {
    const { deps, context, registration } = await activeOn('pro');
    for (const body of [
      {},
      { changes: {} },
      { changes: { contacts: ['a@example.com'] }, status: 'approved' },
      { changes: { $set: { clientId: 'x' } } },
      { changes: 'all' },
    ]) {
      const error = await rejection(proposeChangeSet(deps, context, registration.id, body));
      expect([error.status, error.code], JSON.stringify(body)).to.deep.equal([422, 'validation_failed']);
    }
    expect(await deps.store.registrations.get(context.organization.id, registration.id)).to.deep.equal(registration);
  });

  it('lets only one of two concurrent proposals through', async () => {
    const { deps, context, registration } = await activeOn('pro');
    const results = await Promise.allSettled([
      proposeChangeSet(deps, context, registration.id, { changes: { contacts: ['a@example.com'] } }),
      proposeChangeSet(deps, context, registration.id, { changes: { contacts: ['b@example.com'] } }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as { code: string }).code).to.equal('conflict');
  });
});
