import { expect } from 'chai';
import { createLogger } from '../../lib/logger.js';
import { createIdp } from '../../idp/create-idp.js';
import { redactQuery } from '../../idp/request-log.js';

describe('idp: request log at debug', () => {
  it('writes one line per request with method, path, status, time and client id, and never the token', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', name: 'idp' }, { write: (line: string) => void lines.push(line) });
    const idp = await createIdp({ port: 0, logger });
    try {
      const response = await fetch(`${idp.issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${idp.client.clientId}:${idp.client.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      });
      const { access_token: token } = (await response.json()) as { access_token: string };
      await fetch(`${idp.issuer}/me?access_token=${token}`);
      await new Promise((resolve) => setImmediate(resolve));
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.msg === 'request');
      const tokenLine = records.find((r) => r.path === '/token');
      expect(tokenLine).to.include({
        method: 'POST',
        status: 200,
        clientId: idp.client.clientId,
        grantType: 'client_credentials',
      });
      expect(tokenLine!.ms).to.be.a('number');
      expect(records.find((r) => r.path === '/me')).to.include({ method: 'GET' });
      expect(lines.join('\n')).to.not.contain(token);
      expect(lines.join('\n')).to.not.contain(idp.client.clientSecret!);
    } finally {
      await idp.close();
    }
  });

  it('writes nothing per request at info', async () => {
    const lines: string[] = [];
    const idp = await createIdp({
      port: 0,
      logger: createLogger({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    });
    try {
      await fetch(idp.discoveryUrl);
      expect(lines.filter((l) => l.includes('"request"'))).to.deep.equal([]);
    } finally {
      await idp.close();
    }
  });
});

describe('idp: request records', () => {
  it('redact every credential-bearing query parameter and keep the others', () => {
    expect(redactQuery('?code=abc&state=s&client_id=web&code_verifier=v&id_token_hint=x')).to.deep.equal({
      code: '[redacted]',
      state: '[redacted]',
      client_id: 'web',
      code_verifier: '[redacted]',
      id_token_hint: '[redacted]',
    });
    expect(redactQuery('')).to.equal(undefined);
  });
});
