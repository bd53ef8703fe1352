import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { createLogger } from '../../../lib/logger.js';
import { accessLog } from '../../../server/middleware/access-log.js';
import { requestId } from '../../../server/middleware/request-id.js';

/** An app with the access log writing into `lines` (one parsed object per log line). */
function appLogging(lines: Record<string, unknown>[]): express.Express {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = express();
  app.use(requestId(), accessLog(createLogger({ level: 'info' }, sink)));
  return app;
}

describe('accessLog', () => {
  it('writes one info line per request with reqId, method, path without the query, status and duration', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    app.get('/things/:id', (_req, res) => {
      res.status(201).json({});
    });
    const response = await supertest(app).get('/things/1?code=secret-code');
    const id = response.headers['x-request-id'];
    expect(lines).to.have.length(1);
    expect(lines[0]).to.deep.include({
      level: 30,
      msg: 'request completed',
      reqId: id,
      req: { id, method: 'GET', path: '/things/1' },
      res: { statusCode: 201 },
    });
    expect(lines[0].responseTime).to.be.a('number');
  });

  it('writes a 5xx at error level as "request errored"', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    app.get('/broken', (_req, res) => {
      res.status(503).end();
    });
    await supertest(app).get('/broken');
    expect(lines.map((line) => [line.level, line.msg])).to.deep.equal([[50, 'request errored']]);
  });

  it('gives each request a child logger bound to its id, made only when used', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    app.get('/noisy', (req, res) => {
      req.log?.warn({ detail: 1 }, 'something to say');
      res.status(204).end();
    });
    const response = await supertest(app).get('/noisy');
    expect(lines[0]).to.deep.include({ level: 40, msg: 'something to say', reqId: response.headers['x-request-id'] });
    expect(lines[1]).to.include({ msg: 'request completed' });
  });

  it('writes "request aborted" at warn level when the client goes away before the answer', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLogging(lines);
    let answer: (() => void) | undefined;
    app.get('/slow', (_req, res) => {
      answer = () => res.end();
    });
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const req = httpRequest({ host: '127.0.0.1', port, path: '/slow' });
      req.on('error', () => undefined);
      req.end();
      while (!answer) await new Promise((resolve) => setTimeout(resolve, 5));
      req.destroy();
      while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(lines.map((line) => [line.level, line.msg])).to.deep.equal([[40, 'request aborted']]);
      answer();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
