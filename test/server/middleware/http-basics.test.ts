import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { createLogger } from '../../../lib/logger.js';
import { loadServiceConfig } from '../../../server/config.js';
import { applyHttpBasics } from '../../../server/middleware/http-basics.js';

describe('applyHttpBasics', () => {
  it('logs one access line per request with method, path and status, never the query string or any header', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = express();
    applyHttpBasics(app, { logger: createLogger({ level: 'info' }, sink), config: loadServiceConfig({}) });
    app.get('/console/callback', (_req, res) => {
      // The console's callback answers with the new session cookie: a response header the log must not carry.
      res.append('Set-Cookie', 'gatehouse_console=new-session-321; HttpOnly');
      res.status(204).end();
    });
    const response = await supertest(app)
      .get('/console/callback?code=authorization-code-123&state=s')
      .set('Authorization', 'Bearer token-456')
      .set('Cookie', 'gatehouse_console=session-789');
    expect(response.status).to.equal(204);
    expect(response.headers['x-request-id']).to.be.a('string');
    expect(response.headers['x-powered-by']).to.equal(undefined);
    // helmet's defaults, worked out once and set on every response.
    expect(response.headers['content-security-policy']).to.include("default-src 'self'");
    expect(response.headers['x-content-type-options']).to.equal('nosniff');
    expect(response.headers['strict-transport-security']).to.equal('max-age=31536000; includeSubDomains');
    const log = lines.join('');
    expect(log).to.include('"path":"/console/callback"');
    expect(log).to.include('"res":{"statusCode":204}');
    for (const secret of ['authorization-code-123', 'token-456', 'session-789', 'new-session-321'])
      expect(log).to.not.include(secret);
  });
});
