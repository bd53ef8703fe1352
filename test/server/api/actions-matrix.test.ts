/**
 * The `actions` promise (docs/architecture.md §1.4): for every status × self-service action × scope set × plan, and for every
 * status × action × role × creator (the caller's or another's), an action is listed exactly when its endpoint
 * accepts it; when it is not listed, `blockedActions` names the 403/409 code the endpoint then answers.
 */
import { expect } from 'chai';
import type supertest from 'supertest';
import { newId } from '../../../server/ids.js';
import {
  REGISTRATION_STATUSES,
  type Registration,
} from '../../../server/components/registrations/registrations.model.js';
import type { SelfServiceAction } from '../../../server/components/registrations/state-machine.js';
import { CHANGE_SET_STATUSES } from '../../../server/components/change-sets/change-sets.model.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { GRANT_ROLES } from '../../../server/components/grants/grants.model.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { expectConforms, NO_RATE_LIMITS, seedRegistration } from './api-fixtures.js';

const SCOPE_SETS = [
  ['registrations:read'],
  ['registrations:read', 'registrations:write'],
  ['registrations:read', 'change_sets:write'],
  ['registrations:read', 'registrations:write', 'change_sets:write'],
];

/** How each self-service action is performed; typed by the product's action union, so a new action must be added. */
const PERFORM: Record<SelfServiceAction, (h: ServiceHarness, auth: string, url: string) => supertest.Test> = {
  edit: (h, auth, url) => h.request.patch(url).set('Authorization', auth).send({ description: 'matrix edit' }),
  submit: (h, auth, url) => h.request.post(`${url}/actions/submit`).set('Authorization', auth),
  withdraw: (h, auth, url) => h.request.post(`${url}/actions/withdraw`).set('Authorization', auth),
  delete: (h, auth, url) => h.request.delete(url).set('Authorization', auth),
  propose_change_set: (h, auth, url) =>
    h.request
      .post(`${url}/change-sets`)
      .set('Authorization', auth)
      .send({ changes: { contacts: ['ops@example.com'] } }),
  reveal_secret: (h, auth, url) => h.request.post(`${url}/actions/reveal-secret`).set('Authorization', auth),
  rotate_secret: (h, auth, url) => h.request.post(`${url}/actions/rotate-secret`).set('Authorization', auth),
  retire_previous_secret: (h, auth, url) =>
    h.request.post(`${url}/actions/retire-previous-secret`).set('Authorization', auth),
};
const SELF_SERVICE_ACTIONS = Object.keys(PERFORM) as SelfServiceAction[];

describe('the actions array against what the endpoints accept', () => {
  let h: ServiceHarness;
  const tokens = new Map<string, string>();
  const organizations: Record<string, Organization> = {};

  before(async () => {
    h = await startService({ env: { ...NO_RATE_LIMITS, LOG_LEVEL: 'silent' } });
    organizations.free = await h.createOrganization('free');
    organizations.pro = await h.createOrganization('pro');
    for (const scopes of SCOPE_SETS)
      tokens.set(scopes.join(' '), `Bearer ${await h.token({ scope: scopes.join(' ') })}`);
  });
  after(async () => {
    await h.close();
  });

  const variants: { label: string; overrides: Partial<Registration> }[] = [
    ...REGISTRATION_STATUSES.map((status) => ({ label: status, overrides: { status } })),
    {
      label: 'active with a pending change set',
      overrides: { status: 'active', pendingChangeSetId: 'cs_0000000000000000Pending' },
    },
  ];

  /** Reads a fresh record as `auth` sees it, performs `action`, and checks the answer against what the read said. */
  async function expectActionAsListed(
    organization: Organization,
    overrides: Partial<Registration>,
    auth: string,
    action: SelfServiceAction,
    label: string,
  ): Promise<void> {
    const record = await seedRegistration(h, organization, overrides);
    const url = `/api/v1/organizations/${organization.id}/registrations/${record.id}`;
    const read = await h.request.get(url).set('Authorization', auth);
    expect(read.status).to.equal(200);
    const listed = (read.body.actions as string[]).includes(action);
    const res = await PERFORM[action](h, auth, url);
    expectConforms(read);
    expectConforms(res);
    const where = `${action} on ${label} → ${res.status} ${JSON.stringify(res.body)}`;
    const blocked = (read.body.blockedActions as { action: string; code: string }[]).find((b) => b.action === action);
    expect(
      listed !== (blocked !== undefined),
      `${where}: listed in exactly one of actions and blockedActions`,
    ).to.equal(true);
    if (listed) expect(res.status, where).to.be.within(200, 299);
    else {
      expect([403, 409], where).to.include(res.status);
      expect(res.body.error.code, `${where}: blockedActions explains it`).to.equal(blocked?.code);
    }
  }

  for (const plan of ['free', 'pro'] as const) {
    for (const variant of variants) {
      it(`lists exactly the accepted actions for a ${variant.label} registration on ${plan}, for every scope set`, async () => {
        const organization = organizations[plan];
        for (const scopes of SCOPE_SETS) {
          const auth = tokens.get(scopes.join(' ')) as string;
          for (const action of SELF_SERVICE_ACTIONS)
            await expectActionAsListed(
              organization,
              variant.overrides,
              auth,
              action,
              `${variant.label} (${plan}, scopes ${scopes.join(',')})`,
            );
        }
      });
    }
  }

  for (const variant of variants) {
    it(`lists exactly the accepted actions for a ${variant.label} registration for every role, on the caller's own and on another's`, async () => {
      const organization = organizations.pro;
      for (const role of GRANT_ROLES) {
        const subject = `matrix-${role}`;
        await h.deps.store.grants.grant({ organizationId: organization.id, subject, isDefault: false, role });
        const auth = `Bearer ${await h.token({ sub: subject, scope: SCOPE_SETS[3].join(' ') })}`;
        for (const createdBy of [subject, 'someone-else'])
          for (const action of SELF_SERVICE_ACTIONS)
            await expectActionAsListed(
              organization,
              { ...variant.overrides, createdBy },
              auth,
              action,
              `${variant.label} as ${role} (${createdBy === subject ? 'own' : "another's"})`,
            );
      }
    });
  }

  it('lists a change set withdraw exactly when the endpoint accepts it, for every status, lock holder and scope set', async () => {
    const organization = organizations.pro;
    const cases = [
      ...CHANGE_SET_STATUSES.map((status) => ({ status, holdsLock: status === 'pending_review' })),
      // A pending change set that no longer holds its registration (a decision is committing): not withdrawable.
      { status: 'pending_review' as const, holdsLock: false },
    ];
    for (const { status, holdsLock } of cases) {
      for (const scopes of SCOPE_SETS) {
        const id = newId('cs');
        const registration = await seedRegistration(h, organization, {
          status: 'active',
          ...(holdsLock && { pendingChangeSetId: id }),
        });
        const now = new Date();
        const created = await h.deps.store.changeSets.create({
          id,
          registrationId: registration.id,
          organizationId: organization.id,
          status,
          baseRevision: registration.revision,
          changes: { contacts: ['ops@example.com'] },
          revision: 1,
          createdAt: now,
          updatedAt: now,
          createdBy: 'alice',
        });
        if (!created.ok) throw new Error('seeding a change set failed');
        const auth = tokens.get(scopes.join(' ')) as string;
        const url = `/api/v1/organizations/${organization.id}/registrations/${registration.id}/change-sets/${id}`;
        const read = await h.request.get(url).set('Authorization', auth);
        const listed = (read.body.actions as string[]).includes('withdraw');
        const res = await h.request.post(`${url}/actions/withdraw`).set('Authorization', auth);
        expectConforms(read);
        expectConforms(res);
        const where = `withdraw on a ${status} change set (lock ${holdsLock ? 'held' : 'free'}, scopes ${scopes.join(',')}) → ${res.status}`;
        const blocked = (read.body.blockedActions as { action: string; code: string }[]).find(
          (b) => b.action === 'withdraw',
        );
        if (listed) {
          expect(res.status, where).to.equal(200);
          expect(
            (await h.deps.store.registrations.get(organization.id, registration.id))?.pendingChangeSetId,
            where,
          ).to.equal(undefined);
        } else {
          expect([403, 409], where).to.include(res.status);
          expect(res.body.error.code, where).to.equal(blocked?.code);
          expect(await h.deps.store.changeSets.get(organization.id, registration.id, id), where).to.deep.equal(
            created.record,
          );
        }
      }
    }
  });

  it('actually lists each action somewhere in the matrix (the test can fail both ways)', async () => {
    const organization = organizations.pro;
    const auth = tokens.get(SCOPE_SETS[3].join(' ')) as string;
    const seen = new Set<string>();
    // The secret's actions need a secret the service follows (their endpoints are performed against our IdP in
    // test/server/components/secrets/): one waiting to be revealed, with a previous one in its grace.
    const now = Date.now();
    const secret = {
      version: 1,
      issuedAt: new Date(now),
      sealed: 'v1.sealed',
      revealBy: new Date(now + 60_000),
      previousExpiresAt: new Date(now + 60_000),
    };
    for (const status of REGISTRATION_STATUSES) {
      const record = await seedRegistration(h, organization, { status, ...(status === 'active' && { secret }) });
      const read = await h.request
        .get(`/api/v1/organizations/${organization.id}/registrations/${record.id}`)
        .set('Authorization', auth);
      for (const a of read.body.actions as string[]) seen.add(a);
      const named = [...read.body.actions, ...read.body.blockedActions.map((b: { action: string }) => b.action)];
      expect(named.sort(), `every action the service has is performed here (${status})`).to.deep.equal(
        [...SELF_SERVICE_ACTIONS].sort(),
      );
    }
    expect([...seen].sort()).to.deep.equal([...SELF_SERVICE_ACTIONS].sort());
  });
});
