import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { settingsProblems } from '../../../../lib/settings/settings-error.js';
import { loadServiceConfig } from '../../../../server/config.js';
import { createProvisioning } from '../../../../server/components/provisioning/create-provisioning.js';
import { createLogger } from '../../../../lib/logger.js';
import { createMemoryStore } from '../../../../server/store/memory-store.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadServiceConfig(env);
    return [];
  } catch (error) {
    const problems = settingsProblems(error);
    expect(problems, String(error)).to.be.an('array');
    return problems!;
  }
}

describe('provisioning settings', () => {
  it('refuses an endpoint without its initial access token and encryption key, naming both', () => {
    const problems = problemsOf({ PROVISIONING_REGISTRATION_ENDPOINT: 'http://127.0.0.1:8484/register' }).join('\n');
    expect(problems).to.include('PROVISIONING_INITIAL_ACCESS_TOKEN and PROVISIONING_ENCRYPTION_KEY are required');
  });

  it('refuses an encryption key that is not 32 bytes', () => {
    const problems = problemsOf({ PROVISIONING_ENCRYPTION_KEY: randomBytes(16).toString('base64') }).join('\n');
    expect(problems).to.include('PROVISIONING_ENCRYPTION_KEY must be the base64 of exactly 32 bytes');
  });

  it('provisions nothing without an endpoint, and builds the worker and hook with one', () => {
    const deps = (env: Record<string, string>) => ({
      config: loadServiceConfig(env),
      store: createMemoryStore(),
      logger: createLogger({ level: 'silent', name: 'test' }),
      clock: () => new Date(),
    });
    expect(createProvisioning(deps({}))).to.equal(undefined);
    const provisioning = createProvisioning(
      deps({
        PROVISIONING_REGISTRATION_ENDPOINT: 'http://127.0.0.1:8484/register',
        PROVISIONING_INITIAL_ACCESS_TOKEN: 'iat',
        PROVISIONING_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      }),
    );
    expect(typeof provisioning?.hook.enqueue).to.equal('function');
    expect(typeof provisioning?.worker.runDue).to.equal('function');
  });
});
