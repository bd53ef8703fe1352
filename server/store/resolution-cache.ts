/**
 * A short per-instance cache of what organization resolution reads on every request: a subject's grant on an
 * organization, a subject's default grant, and the organization (issue 15: on MongoDB these were a round trip of
 * every request). Only resolution reads through it (resolve-organization.ts); admin services, audit snapshots and
 * every write read the repositories directly.
 *
 * Why staleness of `ttlMs` (1 s by default) is acceptable: this instance's own grant and organization writes clear
 * the cache at once, so only a change made on ANOTHER instance is seen here late, by at most `ttlMs`: a revoked grant
 * keeps working that long there, a plan change applies that long later. Both are already not instantaneous for a
 * caller (a request in flight finishes under the old grant), and a token stays valid far longer than that. Only
 * answers that grant access are cached: a grant given elsewhere is seen by the next request.
 */
import type { Grant } from '../components/grants/grants.model.js';
import type { GrantRepository } from '../components/grants/grants.repository.js';
import type { Organization } from '../components/organizations/organizations.model.js';
import type { OrganizationRepository } from '../components/organizations/organizations.repository.js';
import { copyPlain } from '../../lib/copy-plain.js';

/** The reads of organization resolution. */
export interface ResolutionReads {
  grant(subject: string, organizationId: string): Promise<Grant | null>;
  defaultGrant(subject: string): Promise<Grant | null>;
  organization(id: string): Promise<Organization | null>;
}

export interface ResolutionCacheOptions {
  ttlMs: number;
  /** Entries kept at most; the oldest go first (bounded memory whatever the number of subjects). */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  value: Promise<unknown>;
  expires: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Wraps the grant and organization repositories: `reads` go through the cache, and every write of the returned
 * repositories clears it (writes are rare: admin changes and seeding).
 */
export function withResolutionCache(
  repositories: { grants: GrantRepository; organizations: OrganizationRepository },
  options: ResolutionCacheOptions,
): { grants: GrantRepository; organizations: OrganizationRepository; reads: ResolutionReads; clear(): void } {
  const { grants, organizations } = repositories;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  function cached<T extends object>(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.value.then((value) => copyPlain(value as T));
    if (hit) entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    // The promise is cached, so concurrent requests share one read; a miss or a failure is not kept.
    const value = load();
    const entry = { value, expires: now() + options.ttlMs };
    entries.set(key, entry);
    const forget = () => {
      if (entries.get(key) === entry) entries.delete(key);
    };
    value.then((v) => v ?? forget(), forget);
    return value.then((v) => (v === null ? null : copyPlain(v)));
  }

  const clear = () => entries.clear();
  /** A write clears the cache before and after it runs, so no read started before it is served after it. */
  function clearing<A extends unknown[], R>(write: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      clear();
      try {
        return await write(...args);
      } finally {
        clear();
      }
    };
  }

  return {
    grants: {
      ...grants,
      grant: clearing(grants.grant.bind(grants)),
      revoke: clearing(grants.revoke.bind(grants)),
    },
    organizations: {
      ...organizations,
      create: clearing(organizations.create.bind(organizations)),
      upsert: clearing(organizations.upsert.bind(organizations)),
      setPlan: clearing(organizations.setPlan.bind(organizations)),
    },
    reads: {
      grant: (subject, organizationId) =>
        cached(JSON.stringify(['grant', subject, organizationId]), () => grants.find(subject, organizationId)),
      defaultGrant: (subject) => cached(JSON.stringify(['default', subject]), () => grants.defaultFor(subject)),
      organization: (id) => cached(JSON.stringify(['organization', id]), () => organizations.get(id)),
    },
    clear,
  };
}

/** The uncached reads, for stores without a cache. */
export function directResolutionReads(repositories: {
  grants: GrantRepository;
  organizations: OrganizationRepository;
}): ResolutionReads {
  return {
    grant: (subject, organizationId) => repositories.grants.find(subject, organizationId),
    defaultGrant: (subject) => repositories.grants.defaultFor(subject),
    organization: (id) => repositories.organizations.get(id),
  };
}
