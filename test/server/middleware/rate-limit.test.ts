import { expect } from 'chai';
import express from 'express';
import supertest from 'supertest';
import { silentLogger } from '../../../lib/logger.js';
import type { Organization } from '../../../server/components/organizations/organizations.model.js';
import { loadServiceConfig } from '../../../server/config.js';
import type { ApiDeps, Store } from '../../../server/deps.js';
import { errorHandler } from '../../../server/middleware/error-handler.js';
import { createRateLimit } from '../../../server/middleware/rate-limit.js';
import {
  createMemoryRateLimitStore,
  type RateLimitStore,
} from '../../../server/components/rate-limits/rate-limits.repository.js';
import { requestId } from '../../../server/middleware/request-id.js';

function appWith(rateLimits: RateLimitStore, env: Record<string, string> = {}) {
  const deps: ApiDeps = {
    config: loadServiceConfig({ API_AUTH_TOKEN_TYPES: 'jwt', LOG_LEVEL: 'silent', ...env }),
    store: { rateLimits } as Store,
    logger: silentLogger,
    clock: () => new Date(),
  };
  const app = express();
  app.use(requestId());
  // Stands in for authenticate and resolveOrganization: the caller and organization come from headers.
  app.use((req, _res, next) => {
    req.principal = { sub: req.get('x-sub') ?? 'alice', scopes: new Set(), tokenKind: 'jwt' };
    const org = req.get('x-org');
    if (org)
      req.organization = {
        id: org,
        name: org,
        plan: (req.get('x-plan') ?? 'free') as Organization['plan'],
        createdAt: new Date(),
      };
    next();
  });
  app.get('/limited', createRateLimit(deps), (_req, res) => res.json({ ok: true }));
  app.use(errorHandler(silentLogger));
  return supertest(app);
}

describe('createRateLimit', () => {
  it('sends RateLimit-Policy and RateLimit with the plan quota on every response', async () => {
    const request = appWith(createMemoryRateLimitStore(), { RATE_LIMIT_PER_MINUTE_PRO: '7' });
    const res = await request.get('/limited').set('x-org', 'org_a').set('x-plan', 'pro');
    expect(res.status).to.equal(200);
    expect(res.headers['ratelimit-policy']).to.equal('"pro";q=7;w=60');
    expect(res.headers['ratelimit']).to.match(/^"pro";r=6;t=(60|59)$/);
  });

  it('answers 429 rate_limited with Retry-After not earlier than the window end once the quota is used', async () => {
    const request = appWith(createMemoryRateLimitStore(), { RATE_LIMIT_PER_MINUTE_FREE: '3' });
    for (let i = 0; i < 3; i += 1) expect((await request.get('/limited').set('x-org', 'org_a')).status).to.equal(200);
    const res = await request.get('/limited').set('x-org', 'org_a');
    expect(res.status).to.equal(429);
    expect(res.body.error.code).to.equal('rate_limited');
    expect(res.headers['ratelimit']).to.match(/^"free";r=0;t=\d+$/);
    const t = Number(/t=(\d+)/.exec(res.headers['ratelimit'])![1]);
    expect(Number(res.headers['retry-after'])).to.be.at.least(t);
  });

  it('counts each subject and organization separately', async () => {
    const request = appWith(createMemoryRateLimitStore(), { RATE_LIMIT_PER_MINUTE_FREE: '1' });
    expect((await request.get('/limited').set('x-org', 'org_a')).status).to.equal(200);
    expect((await request.get('/limited').set('x-org', 'org_a')).status).to.equal(429);
    expect((await request.get('/limited').set('x-org', 'org_b')).status).to.equal(200);
    expect((await request.get('/limited').set('x-org', 'org_a').set('x-sub', 'bob')).status).to.equal(200);
  });

  it('limits calls without an organization per subject at the free rate under the policy "subject"', async () => {
    const request = appWith(createMemoryRateLimitStore(), { RATE_LIMIT_PER_MINUTE_FREE: '2' });
    const res = await request.get('/limited');
    expect(res.headers['ratelimit-policy']).to.equal('"subject";q=2;w=60');
  });

  it('answers 503 unavailable when the counter store fails, never letting the request through', async () => {
    const broken: RateLimitStore = { consume: () => Promise.reject(new Error('connection refused')) };
    const res = await appWith(broken).get('/limited').set('x-org', 'org_a');
    expect(res.status).to.equal(503);
    expect(res.body.error.code).to.equal('unavailable');
  });
});

describe('createMemoryRateLimitStore', () => {
  it('opens a new window once the old one has ended', async () => {
    let now = 1_000_000;
    const store = createMemoryRateLimitStore(() => now);
    expect(await store.consume('k', 1, 60_000)).to.deep.equal({ allowed: true, remaining: 0, resetMs: 60_000 });
    now += 30_000;
    expect(await store.consume('k', 1, 60_000)).to.deep.equal({ allowed: false, remaining: 0, resetMs: 30_000 });
    now += 30_000;
    expect((await store.consume('k', 1, 60_000)).allowed).to.equal(true);
  });
});
