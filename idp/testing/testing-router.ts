/**
 * `/_testing/*` over HTTP (docs/architecture.md §3.4): JSON in, JSON out, each route one call on the TestingApi. Only served
 * with `--enable-testing-api`, which create-idp.ts refuses on a non-loopback host unless told otherwise.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { TestingApi } from './testing-api.js';
import { TestingInputError, type UserChange } from './testing-api.js';
import type { Fault, NextLogin } from './testing-state.js';

export function testingRouter(api: TestingApi): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json({ limit: '64kb' }));
  app.use((_req, res, next) => {
    res.set('cache-control', 'no-store');
    next();
  });
  const body = (req: Request): Record<string, unknown> =>
    req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};

  app.post('/tokens', async (req, res) => {
    res.status(201).json(await api.mintToken(body(req)));
  });
  app.post('/logins', async (req, res) => {
    await api.nextLogin(body(req) as unknown as NextLogin);
    res.status(204).end();
  });
  app.post('/users', async (req, res) => {
    await api.setUser(body(req) as unknown as UserChange);
    res.status(204).end();
  });
  app.post('/device', async (req, res) => {
    res.json(await api.approveDevice(body(req) as unknown as { userCode: string; sub: string }));
  });
  app.post('/faults', (req, res) => {
    api.fault(body(req) as unknown as Fault);
    res.status(204).end();
  });
  app.post('/keys/rotate', async (_req, res) => {
    res.json(await api.rotateKeys());
  });
  app.post('/keys/retire', async (_req, res) => {
    res.json(await api.retireKeys());
  });
  app.post('/clock', (req, res) => {
    api.setClock(Number(body(req).offsetSeconds));
    res.json({ offsetSeconds: api.clockOffsetSeconds });
  });
  app.get('/clock', (_req, res) => {
    res.json({ offsetSeconds: api.clockOffsetSeconds });
  });
  app.get('/requests', (req, res) => {
    const since = Number(req.query.since ?? 0);
    res.json({ requests: api.requests(Number.isFinite(since) ? since : 0) });
  });
  app.post('/reset', async (_req, res) => {
    await api.reset();
    res.status(204).end();
  });
  app.use((_req, res) => {
    res
      .status(404)
      .json({ error: 'not_found', error_description: 'no such testing operation (see docs/architecture.md §3.4)' });
  });
  // Express recognises an error handler by its four parameters.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof TestingInputError)
      return void res.status(400).json({ error: 'invalid_request', error_description: error.message });
    const status = (error as { status?: number }).status;
    if (status && status >= 400 && status < 500)
      return void res.status(status).json({ error: 'invalid_request', error_description: (error as Error).message });
    res.status(500).json({ error: 'server_error', error_description: (error as Error).message });
  });
  return app;
}
