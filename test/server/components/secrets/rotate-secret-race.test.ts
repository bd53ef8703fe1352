/**
 * A rotation whose RFC 7592 PUT is still in flight when a change set is approved and provisioned: the change set's
 * update reaches the IdP first, then the rotation's PUT (the metadata read before the change) overwrites it. The
 * rotation must then send the newest metadata again, so the IdP ends with the change set's metadata.
 */
import { expect } from 'chai';
import type { Organization } from '../../../../server/components/organizations/organizations.model.js';
import { createTokenCipher } from '../../../../server/components/provisioning/token-cipher.js';
import { startSecretHarness, type SecretHarness } from './secret-harness.js';

/** Holds the first PUT that carries a `client_secret` (the rotation's push) until `release` is called. */
function holdSecretPut() {
  const realFetch = globalThis.fetch;
  let arrived!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  globalThis.fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    if (!held && init?.method === 'PUT' && body.includes('"client_secret"')) {
      held = true;
      arrived();
      await released;
    }
    return realFetch(input, init);
  };
  return { reached, release, restore: () => (globalThis.fetch = realFetch) };
}

describe('a rotation racing a change set at the authorization server', function () {
  this.timeout(30_000);
  let s: SecretHarness;
  let org: Organization;
  let alice: string;

  before(async function () {
    s = await startSecretHarness();
    org = await s.h.organization({ plan: 'pro' });
    alice = `Bearer ${await s.h.requesterToken('alice')}`;
  });
  after(() => s?.close());

  async function readAtIdp(id: string): Promise<Record<string, unknown>> {
    const client = (await s.h.deps.store.provisioning.getClient(org.id, id))!;
    const token = createTokenCipher(s.key).decrypt(client.registrationAccessTokenEncrypted, id);
    const res = await fetch(client.registrationClientUri, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(200);
    return (await res.json()) as Record<string, unknown>;
  }

  it("re-sends the newest metadata when a change set landed while the rotation's PUT was held", async () => {
    const { id, clientId } = await s.approvedClient(org);
    const base = `/api/v1/organizations/${org.id}/registrations/${id}`;
    const rita = await s.h.staffToken('rita', 'gatehouse:review');
    const hold = holdSecretPut();
    let secret = '';
    try {
      const rotation = s.h.public
        .post(`${base}/actions/rotate-secret`)
        .set('Authorization', alice)
        .send({ graceSeconds: 600 })
        .then((res) => res);
      await hold.reached;

      // While the rotation's PUT (the metadata before the change) is in flight: a change set approved and provisioned.
      const proposed = await s.h.public
        .post(`${base}/change-sets`)
        .set('Authorization', alice)
        .send({ changes: { contacts: ['ops@example.com'] } });
      expect(proposed.status, JSON.stringify(proposed.body)).to.equal(201);
      const decided = await s.h.internal
        .post(
          `/internal/v1/organizations/${org.id}/registrations/${id}/change-sets/${proposed.body.id}/actions/approve`,
        )
        .set('Authorization', `Bearer ${rita}`)
        .send({});
      expect(decided.status, JSON.stringify(decided.body)).to.equal(200);
      await s.h.provisioning!.worker.runDue();
      expect((await readAtIdp(id)).contacts, 'the change set reached the IdP first').to.deep.equal(['ops@example.com']);

      hold.release();
      const rotated = await rotation;
      expect(rotated.status, JSON.stringify(rotated.body)).to.equal(200);
      secret = rotated.body.clientSecret as string;
    } finally {
      hold.restore();
    }
    expect((await readAtIdp(id)).contacts, "the IdP ends with the change set's metadata").to.deep.equal([
      'ops@example.com',
    ]);
    expect(await s.tokenWith(clientId, secret), 'the re-sent metadata left the new secret alone').to.equal('token');
  });
});
