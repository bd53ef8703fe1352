/** Service-level test setup: an embedded store, a fixed clock and a caller in an organization. */
import { createMemoryStore } from '../../../../server/store/memory-store.js';
import type { Plan } from '../../../../server/components/organizations/organizations.model.js';
import type { RequestContext } from '../../../../server/components/registrations/request-context.js';
import type { ServiceDeps } from '../../../../server/components/registrations/service-deps.js';
import { AppError } from '../../../../lib/app-error.js';

export const ALL_SCOPES = new Set(['registrations:read', 'registrations:write', 'change_sets:write']);

export async function domain(
  plan: Plan = 'pro',
  sub = 'alice',
): Promise<{ deps: ServiceDeps; context: RequestContext }> {
  const store = createMemoryStore();
  let tick = Date.parse('2026-03-01T00:00:00Z');
  const deps: ServiceDeps = { store, clock: () => new Date((tick += 1000)) };
  const organization = await store.organizations.create({ name: 'Domain org', plan });
  return { deps, context: { organization, principal: { sub, scopes: ALL_SCOPES }, role: 'owner' } };
}

/** The AppError a call rejects with (fails the test when it resolves or throws something else). */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused, but it succeeded');
}
