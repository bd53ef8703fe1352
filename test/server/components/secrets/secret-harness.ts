/**
 * The client-secret tests' setting: our IdP (registration on, testing API for its clock and faults) as the
 * authorization server, the public service and the internal surface over one store with provisioning into it, and
 * helpers to approve a confidential service client, run the provisioning worker and try a secret at /token.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../../../idp/create-idp.js';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import type { Store } from '../../../../server/deps.js';
import { clientCredentialsWith } from '../../../idp/support/relying-party.js';
import { startInternal, type InternalHarness } from '../../internal/support/internal-harness.js';

export const SERVICE_CLIENT = {
  name: 'Nightly billing job',
  clientType: 'confidential',
  applicationType: 'service',
  policyProfileId: 'pp_service',
  config: { grantTypes: ['client_credentials'], tokenEndpointAuthMethod: 'client_secret_basic' },
};

export interface SecretHarness {
  idp: RunningIdp;
  h: InternalHarness;
  key: string;
  /** A confidential service registration of `organization`, approved by a reviewer and registered at the IdP. */
  approvedClient(organization: Organization, body?: Record<string, unknown>): Promise<{ id: string; clientId: string }>;
  /** client_credentials at the IdP's /token: `token`, or the OAuth error (`invalid_client` for a refused secret). */
  tokenWith(clientId: string, secret: string): Promise<string>;
  close(): Promise<void>;
}

export async function startSecretHarness(
  options: { env?: Record<string, string>; store?: Store } = {},
): Promise<SecretHarness> {
  const initialAccessToken = `iat-${randomBytes(16).toString('hex')}`;
  const key = randomBytes(32).toString('base64');
  const idp = await createIdp({
    port: 0,
    enableRegistration: true,
    registrationInitialAccessToken: initialAccessToken,
    enableTestingApi: true,
    skipPrompt: true,
  });
  const h = await startInternal({
    env: {
      PROVISIONING_REGISTRATION_ENDPOINT: idp.registrationEndpoint!,
      PROVISIONING_INITIAL_ACCESS_TOKEN: initialAccessToken,
      PROVISIONING_ENCRYPTION_KEY: key,
      PROVISIONING_RETRY_S: '1',
      PROVISIONING_SECRET_OVERLAP: 'true',
      LOG_LEVEL: 'silent',
      ...options.env,
    },
    store: options.store,
    provisioning: {},
  });
  const rita = await h.staffToken('rita', 'gatehouse:review');

  return {
    idp,
    h,
    key,
    async approvedClient(organization, body = SERVICE_CLIENT) {
      const id = await h.submitted(organization, 'alice', body);
      const approved = await h.internal
        .post(`/internal/v1/organizations/${organization.id}/registrations/${id}/actions/approve`)
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      await h.provisioning!.worker.runDue();
      const registration = await h.deps.store.registrations.get(organization.id, id);
      expect(registration?.clientId, 'registered at the IdP').to.be.a('string');
      return { id, clientId: registration!.clientId! };
    },
    tokenWith: (clientId, secret) => clientCredentialsWith(idp.issuer, clientId, secret),
    async close() {
      await h.close();
      await idp.close();
    },
  };
}
