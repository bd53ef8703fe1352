/**
 * Graceful shutdown (issue 26): the `registration-service` process, sent SIGTERM while 50 requests are in flight
 * (each waiting on a slow introspection), answers every one of them, refuses new connections meanwhile, and exits
 * 0 — within SHUTDOWN_GRACE_MS. The same with SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { fromRoot } from '../../../lib/project-root.js';
import { startTestAuth, type TestAuth } from '../../support/test-auth.js';
import { startFakeAuthorizationServer, type FakeAuthorizationServer } from '../middleware/fake-authorization-server.js';

const IN_FLIGHT = 50;
const INTROSPECTION_DELAY_MS = 1500;

/** Starts the service; resolves with its public URL once it says it listens. */
async function startService(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fromRoot('server/bin.ts')], {
    cwd: fromRoot(),
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const listening = log
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as { msg?: string; url?: string };
        } catch {
          return {};
        }
      })
      .find((line) => line.msg === 'registration service listening');
    if (listening?.url) return { child, url: listening.url, log: () => log };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('graceful shutdown of the service process', function () {
  this.timeout(40_000);
  let auth: TestAuth;
  let as: FakeAuthorizationServer;
  before(async () => {
    auth = await startTestAuth();
    as = await startFakeAuthorizationServer(auth.jwksUri);
    as.answer = () => ({
      kind: 'json',
      delayMs: INTROSPECTION_DELAY_MS,
      body: {
        active: true,
        sub: 'alice',
        scope: 'registrations:read',
        aud: auth.audience,
        exp: Date.now() / 1000 + 300,
      },
    });
  });
  after(async () => {
    await as.close();
    await auth.close();
  });

  it('cuts what still runs after SHUTDOWN_GRACE_MS and exits 0 then', async () => {
    const { child, url, log } = await startService({
      ...auth.env(),
      API_AUTH_TOKEN_TYPES: 'opaque',
      API_AUTH_INTROSPECTION_URL: as.introspectionUrl,
      API_AUTH_CLIENT_ID: 'gatehouse-api',
      API_AUTH_CLIENT_SECRET: 'secret',
      LOG_LEVEL: 'info',
      PORT: '0',
      INTERNAL_PORT: '0',
      SHUTDOWN_GRACE_MS: '300',
    });
    const exited = once(child, 'exit');
    try {
      const slow = fetch(`${url}/api/v1/organizations`, { headers: { authorization: 'Bearer too-slow-1' } }).then(
        (res) => res.status,
        () => 'cut',
      );
      while (!as.introspectionCalls.some((call) => call.token === 'too-slow-1'))
        await new Promise((resolve) => setTimeout(resolve, 20));
      const stoppedAt = Date.now();
      child.kill('SIGTERM');
      const [code] = (await exited) as [number | null];
      expect(await slow).to.equal('cut');
      expect(code, log()).to.equal(0);
      expect(Date.now() - stoppedAt).to.be.lessThan(INTROSPECTION_DELAY_MS);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`answers all ${IN_FLIGHT} requests in flight at ${signal}, refuses new connections, and exits 0`, async () => {
      const { child, url, log } = await startService({
        ...auth.env(),
        API_AUTH_TOKEN_TYPES: 'opaque',
        API_AUTH_INTROSPECTION_URL: as.introspectionUrl,
        API_AUTH_CLIENT_ID: 'gatehouse-api',
        API_AUTH_CLIENT_SECRET: 'secret',
        LOG_LEVEL: 'info',
        PORT: '0',
        INTERNAL_PORT: '0',
        SHUTDOWN_GRACE_MS: '10000',
      });
      const exited = once(child, 'exit');
      try {
        // Each a token of its own: none is answered from the introspection cache, each waits for the delay.
        const requests = Array.from({ length: IN_FLIGHT }, (_, i) =>
          fetch(`${url}/api/v1/organizations`, { headers: { authorization: `Bearer in-flight-${signal}-${i}` } }).then(
            (res) => res.status,
            (error: unknown) => `failed: ${String(error)}`,
          ),
        );
        const deadline = Date.now() + 5000;
        while (as.introspectionCalls.filter((c) => c.token.startsWith(`in-flight-${signal}`)).length < IN_FLIGHT) {
          if (Date.now() > deadline) throw new Error('the requests did not all reach introspection');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const stoppedAt = Date.now();
        child.kill(signal);
        await new Promise((resolve) => setTimeout(resolve, 200));
        const late = await fetch(`${url}/readyz`).then(
          (res) => `answered ${res.status}`,
          () => 'refused',
        );
        const statuses = await Promise.all(requests);
        const [code] = (await exited) as [number | null];
        expect(statuses, log()).to.deep.equal(Array.from({ length: IN_FLIGHT }, () => 200));
        expect(late).to.equal('refused');
        expect(code, log()).to.equal(0);
        expect(Date.now() - stoppedAt).to.be.lessThan(10_000);
        expect(log()).to.include('stopping: not ready, finishing the requests in flight');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });
  }
});
