import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { createLogger } from '../../../lib/logger.js';
import { apiError } from '../../../server/errors.js';
import { errorHandler } from '../../../server/middleware/error-handler.js';
import { methodNotAllowed } from '../../../server/middleware/method-not-allowed.js';
import { notFound } from '../../../server/middleware/not-found.js';
import { requestId } from '../../../server/middleware/request-id.js';

describe('errorHandler', () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const app = express();
  app.use(requestId());
  app.get('/app-error', () => {
    throw apiError('validation_failed', 'Bad.', {
      fields: [{ path: 'config.redirectUris[2]', message: 'must use https' }],
    });
  });
  app.get('/with-headers', () => {
    throw apiError('rate_limited', 'Slow down.', { headers: { 'Retry-After': '17' } });
  });
  app.get('/crash', async () => {
    throw new Error('MongoServerError: E11000 duplicate key secret-detail');
  });
  app.get('/unavailable', () => {
    throw apiError('unavailable', 'Down.');
  });
  app.get('/unreachable', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:27017'), {
      code: 'ECONNREFUSED',
      address: '10.1.2.3',
      port: 27017,
    });
    throw apiError('unavailable', 'The database is unavailable; retry shortly.', {
      cause: new Error('server selection failed', { cause: refused }),
    });
  });
  app
    .route('/only-get')
    .get((_req, res) => res.json({}))
    .all(methodNotAllowed(['GET', 'head']));
  app.use(notFound());
  app.use(errorHandler(createLogger({ level: 'info' }, sink)));

  it('writes an AppError as the envelope with its status, fields and request id', async () => {
    const res = await supertest(app).get('/app-error');
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.equal({
      error: {
        code: 'validation_failed',
        message: 'Bad.',
        fields: [{ path: 'config.redirectUris[2]', message: 'must use https' }],
        requestId: res.headers['x-request-id'],
      },
    });
  });

  it('copies the headers an AppError carries', async () => {
    const res = await supertest(app).get('/with-headers');
    expect(res.status).to.equal(429);
    expect(res.headers['retry-after']).to.equal('17');
    expect(res.body.error).to.not.have.property('fields');
  });

  it('answers 500 internal_error without details for an unknown error and logs it under the request id', async () => {
    lines.length = 0;
    const res = await supertest(app).get('/crash').set('X-Request-Id', 'crash-1');
    expect(res.status).to.equal(500);
    expect(res.body).to.deep.equal({
      error: { code: 'internal_error', message: 'An unexpected error occurred.', requestId: 'crash-1' },
    });
    expect(JSON.stringify(res.body)).to.not.contain('E11000');
    const logged = lines.map((l) => JSON.parse(l) as { requestId?: string; err?: { message: string } });
    expect(logged.some((l) => l.requestId === 'crash-1' && l.err?.message.includes('E11000'))).to.equal(true);
  });

  it('adds Retry-After to a 503 that carries none', async () => {
    const res = await supertest(app).get('/unavailable');
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.match(/^\d+$/);
  });

  it('answers 404 not_found in the envelope for unknown paths', async () => {
    const res = await supertest(app).get('/nope');
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('answers 405 method_not_allowed with Allow for a known path', async () => {
    const res = await supertest(app).delete('/only-get');
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('GET, HEAD');
    expect(res.body.error.code).to.equal('method_not_allowed');
  });
  it('logs a 503 with its cause chain as data: the code, address and port of the connection that failed', async () => {
    lines.length = 0;
    const res = await supertest(app).get('/unreachable');
    expect(res.status).to.equal(503);
    expect(JSON.stringify(res.body)).to.not.include('10.1.2.3');
    const line = JSON.parse(lines.find((l) => l.includes('The database is unavailable')) ?? '{}') as {
      cause?: unknown[];
    };
    expect(line.cause).to.deep.equal([
      { name: 'Error', message: 'server selection failed' },
      {
        name: 'Error',
        message: 'connect ECONNREFUSED 10.1.2.3:27017',
        code: 'ECONNREFUSED',
        address: '10.1.2.3',
        port: 27017,
      },
    ]);
  });
});
