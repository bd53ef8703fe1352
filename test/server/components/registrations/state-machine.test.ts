/** The one transition table: what it allows, in which order it refuses, and that reviewer rows never leak into actions. */
import { expect } from 'chai';
import {
  REGISTRATION_STATUSES,
  type Registration,
} from '../../../../server/components/registrations/registrations.model.js';
import {
  check,
  evaluateActions,
  PRE_APPROVAL_STATUSES,
  reviewTable,
  selfServiceRow,
} from '../../../../server/components/registrations/state-machine.js';

const ALL = new Set(['registrations:read', 'registrations:write', 'change_sets:write']);
const NOW = new Date('2026-06-01T12:00:00Z');
const EVERYTHING = { scopes: ALL, changeSetsAllowed: true, role: 'owner', subject: 'alice', now: NOW } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A secret the authorization server issued a day ago, still waiting to be revealed. */
const UNREVEALED = {
  version: 1,
  issuedAt: new Date(NOW.getTime() - DAY_MS),
  sealed: 'v1.sealed',
  revealBy: new Date(NOW.getTime() + 6 * DAY_MS),
};

function record(status: Registration['status'], extra: Partial<Registration> = {}): Registration {
  const now = new Date();
  return {
    id: 'reg_0000000000000000',
    organizationId: 'org_0000000000000000',
    name: 'x',
    description: '',
    clientType: 'confidential',
    applicationType: 'web',
    policyProfileId: 'pp_standard',
    config: {},
    status,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: 'alice',
    ...extra,
  };
}

/** Every self-service action, as a response names it: allowed in `actions` or refused in `blockedActions`. */
function selfServiceActions(status: Registration['status']) {
  const { actions, blockedActions } = evaluateActions(record(status), EVERYTHING);
  return [...actions, ...blockedActions.map((blocked) => blocked.action)];
}

/** The rows of every transition: the self-service ones (by the actions a response names) and the reviewer ones. */
function allRows() {
  return [...selfServiceActions('draft').map(selfServiceRow), ...reviewTable];
}

describe('registration state machine', () => {
  it('allows every caller with all scopes exactly the table rows for each status', () => {
    const expected: Record<string, string[]> = {
      draft: ['edit', 'submit', 'delete'],
      pending_review: ['withdraw'],
      changes_requested: ['edit', 'submit'],
      active: ['propose_change_set'],
      rejected: ['delete'],
      suspended: [],
      deprecated: [],
    };
    for (const status of REGISTRATION_STATUSES) {
      expect(evaluateActions(record(status), EVERYTHING).actions, status).to.deep.equal(expected[status]);
    }
  });

  it('offers the secret actions on active and suspended clients whose secret it follows, as the secret allows', () => {
    const actions = (status: Registration['status'], secret: Registration['secret']) =>
      evaluateActions(record(status, { secret }), EVERYTHING).actions.filter((a) => a.includes('secret'));
    expect(actions('active', UNREVEALED)).to.deep.equal(['reveal_secret', 'rotate_secret']);
    expect(actions('suspended', UNREVEALED)).to.deep.equal(['reveal_secret', 'rotate_secret']);
    expect(actions('deprecated', UNREVEALED)).to.deep.equal([]);
    // Revealed, or not within its 7 days: nothing left to reveal.
    expect(actions('active', { version: 2, issuedAt: UNREVEALED.issuedAt, revealedAt: NOW })).to.deep.equal([
      'rotate_secret',
    ]);
    expect(actions('active', { ...UNREVEALED, revealBy: NOW })).to.deep.equal(['rotate_secret']);
    // A previous secret within its grace can be retired; after it, not.
    const overlap = { version: 3, issuedAt: NOW, previousExpiresAt: new Date(NOW.getTime() + 1000) };
    expect(actions('active', overlap)).to.deep.equal(['rotate_secret', 'retire_previous_secret']);
    expect(actions('active', { ...overlap, previousExpiresAt: NOW })).to.deep.equal(['rotate_secret']);
    // A rotation in flight holds the next one back until it is old enough to be resumed.
    const pending = { sealed: 'v1.new', startedAt: new Date(NOW.getTime() - 1000) };
    expect(check('rotate_secret', record('active', { secret: { ...overlap, pending } }), EVERYTHING)?.code).to.equal(
      'conflict',
    );
    const cutOff = { ...pending, startedAt: new Date(NOW.getTime() - 61_000) };
    expect(check('rotate_secret', record('active', { secret: { ...overlap, pending: cutOff } }), EVERYTHING)).to.equal(
      undefined,
    );
    // Public clients have none; a client without a followed secret is told why.
    expect(check('rotate_secret', record('active', { clientType: 'public' }), EVERYTHING)?.code).to.equal(
      'invalid_transition',
    );
    expect(check('rotate_secret', record('active', { clientId: 'c1' }), EVERYTHING)?.message).to.match(
      /no secret managed/,
    );
  });

  it('refuses in the order scope → status → plan → open change set', () => {
    const none = { ...EVERYTHING, scopes: new Set<string>(), changeSetsAllowed: false } as const;
    expect(check('propose_change_set', record('draft'), none)?.code).to.equal('insufficient_scope');
    expect(check('propose_change_set', record('draft'), { ...none, scopes: ALL })?.code).to.equal('invalid_transition');
    expect(check('propose_change_set', record('active'), { ...none, scopes: ALL })?.code).to.equal('plan_restricted');
    const locked = record('active', { pendingChangeSetId: 'cs_0000000000000000' });
    expect(check('propose_change_set', locked, EVERYTHING)?.code).to.equal('conflict');
    expect(check('propose_change_set', record('active'), EVERYTHING)).to.equal(undefined);
  });

  it('refuses by role after the scope and before the status: viewers everything, developers what others created', () => {
    const viewer = { ...EVERYTHING, role: 'viewer' } as const;
    const developer = { ...EVERYTHING, role: 'developer' } as const;
    expect(check('edit', record('draft'), { ...viewer, scopes: new Set<string>() })?.code).to.equal(
      'insufficient_scope',
    );
    expect(check('edit', record('active'), viewer)?.code).to.equal('forbidden');
    expect(check('edit', record('active', { createdBy: 'bob' }), developer)?.code).to.equal('forbidden');
    expect(check('edit', record('active'), developer)?.code).to.equal('invalid_transition');
    expect(check('edit', record('draft'), developer)).to.equal(undefined);
    expect(check('rotate_secret', record('active', { secret: UNREVEALED }), developer)?.code).to.equal('forbidden');
    expect(
      check('reveal_secret', record('active', { secret: UNREVEALED, createdBy: 'alice' }), developer)?.code,
    ).to.equal('forbidden');
    expect(evaluateActions(record('draft'), viewer).actions).to.deep.equal([]);
  });

  it('keeps reviewer transitions out of actions and blockedActions, whatever the status', () => {
    const review: string[] = reviewTable.map((row) => row.action);
    expect(review).to.deep.equal(['approve', 'reject', 'request_changes', 'suspend', 'unsuspend', 'deprecate']);
    for (const status of REGISTRATION_STATUSES) {
      const named = selfServiceActions(status);
      expect(named, status).to.have.length(8);
      for (const action of named) expect(review, `${action} on ${status}`).to.not.include(action);
    }
  });

  it('names only statuses that exist', () => {
    for (const row of allRows()) {
      for (const status of row.from) expect(REGISTRATION_STATUSES).to.include(status);
      if (!['same', 'removed'].includes(row.to)) expect(REGISTRATION_STATUSES).to.include(row.to);
    }
  });

  it('knows the statuses before the first approval, and no row leads back into them from after it', () => {
    expect([...PRE_APPROVAL_STATUSES].sort()).to.deep.equal([
      'changes_requested',
      'draft',
      'pending_review',
      'rejected',
    ]);
    for (const row of allRows()) {
      if (row.to === 'same' || row.to === 'removed' || !PRE_APPROVAL_STATUSES.has(row.to)) continue;
      for (const status of row.from)
        expect(PRE_APPROVAL_STATUSES.has(status), `${row.action} from ${status}`).to.equal(true);
    }
  });
});
