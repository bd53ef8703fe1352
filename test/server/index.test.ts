/** gatehouse/service (server/index.ts): settings given in code are checked exactly as the environment is. */
import { expect } from 'chai';
import request from 'supertest';
import { createApp, createMemoryStore, serviceConfig, silentLogger } from '../../server/index.js';

const SECRET = 'a-cursor-secret-that-is-32-chars-long!';

describe('gatehouse/service', () => {
  it('builds an application from settings given in code', async () => {
    const config = serviceConfig({ cursorSecret: SECRET, logLevel: 'silent' });
    const app = createApp({ config, store: createMemoryStore(), logger: silentLogger, clock: () => new Date() });
    const response = await request(app).get('/healthz');
    expect(response.status).to.equal(200);
  });

  it('refuses a misspelled setting, a short secret and a wrong enum in one error naming each', () => {
    let error: (Error & { code?: string }) | undefined;
    try {
      serviceConfig({ cursorSecret: 'short', logLevel: 'loud', cursorSecrt: SECRET } as never);
    } catch (e) {
      error = e as Error & { code?: string };
    }
    expect(error?.code).to.equal('invalid_settings');
    expect(error?.message).to.include('cursorSecrt').and.include('did you mean cursorSecret');
    expect(error?.message).to.include('cursorSecret must be at least 32 characters');
    expect(error?.message).to.include('logLevel');
  });
});
