// A consumer's test (node --test): the IdP started in-process, a token from its real token endpoint.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createIdp } from 'gatehouse/idp';

test('the stub IdP issues a client-credentials token in-process', async () => {
  const idp = await createIdp({ port: 0, logLevel: 'silent' });
  try {
    const discovery = await (await fetch(idp.discoveryUrl)).json();
    const response = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${idp.client.clientId}:${idp.client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200);
    const token = await response.json();
    assert.equal(token.token_type, 'Bearer');
    assert.ok(token.access_token.length > 20);
  } finally {
    await idp.close();
  }
});
