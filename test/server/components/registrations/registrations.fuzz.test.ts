/**
 * Arbitrary JSON into the registration services: every body is either accepted or refused with a 4xx AppError,
 * never an unexpected exception (a 500). Deterministic: a seeded generator, the same bodies on every run.
 */
import { expect } from 'chai';
import { AppError } from '../../../../lib/app-error.js';
import {
  createRegistration,
  submitRegistration,
  updateRegistration,
} from '../../../../server/components/registrations/registrations.service.js';
import { proposeChangeSet } from '../../../../server/components/change-sets/change-sets.service.js';
import { domain } from './domain-fixtures.js';

/** mulberry32: a tiny seeded PRNG, so failures reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  'name',
  'description',
  'clientType',
  'applicationType',
  'policyProfileId',
  'templateId',
  'config',
  'status',
  '$set',
  '__proto__',
  'constructor',
  'redirectUris',
  'grantTypes',
  'jwks',
  'jwksUri',
  'contacts',
  'changes',
  'scopes',
  'revision',
];
const STRINGS = [
  '',
  'tpl_web',
  'pp_standard',
  'public',
  'web',
  'https://app.example.com/cb',
  'javascript:alert(1)',
  '{"$gt":""}',
  'x'.repeat(3000),
  '\u0000',
  'authorization_code',
];

function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 2 ? 4 : 6));
  switch (pick) {
    case 0:
      return STRINGS[Math.floor(next() * STRINGS.length)];
    case 1:
      return [null, true, false, 0, -1, 1e308, 3.5][Math.floor(next() * 7)];
    case 2:
      return null;
    case 3:
      return Math.floor(next() * 1000);
    case 4:
      return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(next() * 5); i > 0; i -= 1) {
        // defineProperty, so a "__proto__" key is an own property as JSON.parse would make it.
        Object.defineProperty(object, KEYS[Math.floor(next() * KEYS.length)], {
          value: value(next, depth + 1),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      }
      return object;
    }
  }
}

/** A valid body with one random change somewhere: gets past the schema often enough to reach the policy checks. */
function mutated(next: () => number, base: Record<string, unknown>): unknown {
  const body = structuredClone(base);
  // Some bodies stay valid, so the success paths (and what follows them) run too.
  if (next() < 0.3) return body;
  let node: Record<string, unknown> = body;
  while (next() < 0.5) {
    const objects = Object.entries(node).filter(([, v]) => v !== null && typeof v === 'object' && !Array.isArray(v));
    if (objects.length === 0) break;
    node = objects[Math.floor(next() * objects.length)][1] as Record<string, unknown>;
  }
  const keys = Object.keys(node);
  const key =
    next() < 0.7 && keys.length > 0 ? keys[Math.floor(next() * keys.length)] : KEYS[Math.floor(next() * KEYS.length)];
  if (next() < 0.5 && Array.isArray(node[key])) (node[key] as unknown[]).push(value(next, 2));
  else
    Object.defineProperty(node, key, { value: value(next, 2), enumerable: true, configurable: true, writable: true });
  return body;
}

const CONFIG = {
  redirectUris: ['https://app.example.com/cb'],
  grantTypes: ['authorization_code'],
  contacts: ['ops@example.com'],
};

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    if (error instanceof AppError && error.status >= 400 && error.status < 500) return error.code;
    throw error;
  }
}

describe('registration services under arbitrary JSON', () => {
  it('accept or refuse 400 generated and mutated bodies with a 4xx, never an unexpected error', async () => {
    const { deps, context } = await domain('enterprise');
    const next = random(20260301);
    const draft = await createRegistration(deps, context, {
      name: 'Fuzz target',
      templateId: 'tpl_web',
      config: { redirectUris: ['https://app.example.com/cb'] },
    });
    const live = await deps.store.registrations.upsert({
      ...draft,
      id: 'reg_0000000000000000Fuzz',
      status: 'active',
      clientId: 'fuzz-live',
    });
    const codes = new Map<string, number>();
    for (let i = 0; i < 100; i += 1) {
      const bodies =
        i % 2 === 0
          ? [value(next, 0), value(next, 0), value(next, 0), value(next, 0)]
          : [
              mutated(next, { name: 'Fuzz', templateId: 'tpl_web', config: CONFIG }),
              mutated(next, { description: 'Fuzzed', config: CONFIG }),
              next() < 0.5 ? {} : mutated(next, {}),
              mutated(next, { changes: CONFIG }),
            ];
      for (const code of [
        await outcome(createRegistration(deps, context, bodies[0])),
        await outcome(updateRegistration(deps, context, draft.id, bodies[1])),
        await outcome(submitRegistration(deps, context, draft.id, bodies[2])),
        await outcome(proposeChangeSet(deps, context, live.id, bodies[3])),
      ]) {
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
    }
    expect(codes.get('validation_failed')).to.be.greaterThan(0);
    expect(codes.get('accepted'), 'the mutated bodies reach the success paths too').to.be.greaterThan(10);
    expect(
      [...codes.keys()].every((c) =>
        ['accepted', 'validation_failed', 'invalid_transition', 'conflict', 'plan_restricted', 'not_found'].includes(c),
      ),
    ).to.equal(true);
  });
});
