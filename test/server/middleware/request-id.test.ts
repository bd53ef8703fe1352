import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { requestId } from '../../../server/middleware/request-id.js';

describe('requestId', () => {
  const app = express();
  app.use(requestId());
  app.get('/id', (req, res) => {
    res.json({ id: req.requestId });
  });

  it('generates an id when none is sent and echoes it in X-Request-Id', async () => {
    const res = await supertest(app).get('/id');
    expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    expect(res.body.id).to.equal(res.headers['x-request-id']);
  });

  it('reuses a well-formed inbound id', async () => {
    const res = await supertest(app).get('/id').set('X-Request-Id', 'lb-1234.abc_DEF:9');
    expect(res.headers['x-request-id']).to.equal('lb-1234.abc_DEF:9');
  });

  it('replaces an inbound id that could forge log fields or is too long', async () => {
    for (const bad of ['a b', 'x'.repeat(200), '{"level":60}', '-leading-dash']) {
      const res = await supertest(app).get('/id').set('X-Request-Id', bad);
      expect(res.headers['x-request-id'], bad).to.not.equal(bad);
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
    }
  });
});
