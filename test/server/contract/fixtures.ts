/** Record builders for the repository contract suite: valid records with fresh ids, overridable per test. */
import { newId } from '../../../server/ids.js';
import type { Registration } from '../../../server/components/registrations/registrations.model.js';
import type { ChangeSet } from '../../../server/components/change-sets/change-sets.model.js';
import type { Webhook } from '../../../server/components/webhooks/webhooks.model.js';

export const ORG_A = 'org_AAAAAAAAAAAAAAAAAAAAAA';
export const ORG_B = 'org_BBBBBBBBBBBBBBBBBBBBBB';

export const T0 = new Date('2026-01-01T00:00:00.000Z');

export function at(seconds: number): Date {
  return new Date(T0.getTime() + seconds * 1000);
}

export function aRegistration(overrides: Partial<Registration> = {}): Registration {
  return {
    id: newId('reg'),
    organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA',
    name: 'Contract app',
    description: '',
    clientType: 'confidential',
    applicationType: 'web',
    policyProfileId: 'pp_standard',
    config: { redirectUris: ['https://app.example.com/cb'] },
    status: 'draft',
    revision: 1,
    createdAt: T0,
    updatedAt: T0,
    createdBy: 'alice',
    ...overrides,
  };
}

export function aChangeSet(overrides: Partial<ChangeSet> = {}): ChangeSet {
  return {
    id: newId('cs'),
    registrationId: newId('reg'),
    organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA',
    status: 'pending_review',
    baseRevision: 3,
    changes: { redirectUris: ['https://app.example.com/new'] },
    revision: 1,
    createdAt: T0,
    updatedAt: T0,
    createdBy: 'alice',
    ...overrides,
  };
}

export function aWebhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: newId('whk'),
    organizationId: ORG_A,
    url: 'https://hooks.example.com/in',
    events: ['registration.approved'],
    description: '',
    secretSealed: 'sealed',
    revision: 1,
    createdAt: T0,
    updatedAt: T0,
    createdBy: 'alice',
    ...overrides,
  };
}
