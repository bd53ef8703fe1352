/** Helpers for the API tests: OpenAPI conformance of a supertest response and records seeded in any status. */
import { expect } from 'chai';
import type { Response } from 'supertest';
import { newId } from '../../../server/ids.js';
import { validateResponse } from './openapi-response.js';
import type { Registration, RegistrationStatus } from '../../../server/components/registrations/registrations.model.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import type { ServiceHarness } from '../../support/service-harness.js';

/** High enough that the matrix never meets a rate limit; the rate-limit tests live with the edge. */
export const NO_RATE_LIMITS = {
  RATE_LIMIT_PER_MINUTE_FREE: '1000000',
  RATE_LIMIT_PER_MINUTE_PRO: '1000000',
  RATE_LIMIT_PER_MINUTE_ENTERPRISE: '1000000',
};

/** A config that passes pp_standard for a confidential web client on every plan. */
export const VALID_WEB_CONFIG = {
  redirectUris: ['https://app.example.com/callback'],
  grantTypes: ['authorization_code'],
};

/** Asserts the response (status and body) is what the OpenAPI document describes for its operation. */
export function expectConforms(res: Response): void {
  const request = (res as unknown as { request: { method: string; url: string } }).request;
  const problems = validateResponse(request.method, new URL(request.url).pathname, res.status, res.body);
  expect(problems, `${request.method} ${request.url} → ${res.status} ${JSON.stringify(res.body)}`).to.deep.equal([]);
}

export async function seedRegistration(
  h: ServiceHarness,
  organization: Organization,
  overrides: Partial<Registration> = {},
): Promise<Registration> {
  const now = new Date();
  const status: RegistrationStatus = overrides.status ?? 'draft';
  return h.deps.store.registrations.upsert({
    id: newId('reg'),
    organizationId: organization.id,
    name: `Seeded ${status}`,
    description: '',
    clientType: 'confidential',
    applicationType: 'web',
    policyProfileId: 'pp_standard',
    config: structuredClone(VALID_WEB_CONFIG),
    status,
    revision: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: 'alice',
    ...(status === 'active' || status === 'suspended' || status === 'deprecated' ? { clientId: newId('client') } : {}),
    ...overrides,
  });
}
