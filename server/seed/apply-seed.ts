/**
 * Applies validated seed data, idempotently: its policy profiles are declared beside the built-in ones
 * (declared-policy-profiles.ts), and through the repositories organizations and registrations are upserted by id (derived from name / organization + name when the file gives none), grants are granted.
 * A record that already holds exactly the seeded values is left alone, so a restart changes nothing.
 */
import type { Store } from '../deps.js';
import type { Registration } from '../components/registrations/registrations.model.js';
import { derivedId } from './derived-id.js';
import { declaredProfilesOf, type SeedData, type SeedRegistration } from './read-seed-file.js';
import { declarePolicyProfiles } from '../components/policy-profiles/declared-policy-profiles.js';

interface SeedSummary {
  policyProfiles: number;
  organizations: number;
  grants: number;
  registrations: { created: number; updated: number; unchanged: number };
}

const SEED_CREATOR = 'seed';

function sameSeededFields(existing: Registration, wanted: Registration): boolean {
  const pick = (r: Registration) =>
    JSON.stringify([
      r.organizationId,
      r.name,
      r.description,
      r.clientType,
      r.applicationType,
      r.policyProfileId,
      r.templateId ?? null,
      r.status,
      r.clientId ?? null,
      r.config,
    ]);
  return pick(existing) === pick(wanted);
}

function seededFields(r: Registration): Partial<Registration> {
  const { name, description, clientType, applicationType, policyProfileId, templateId, config, status, clientId } = r;
  return { name, description, clientType, applicationType, policyProfileId, templateId, config, status, clientId };
}

function registrationOf(seed: SeedRegistration, now: Date): Registration {
  const status = seed.status ?? 'draft';
  return {
    id: seed.id ?? derivedId('reg', seed.organizationId, seed.clientId ?? seed.name),
    organizationId: seed.organizationId,
    name: seed.name,
    description: seed.description ?? '',
    clientType: seed.clientType,
    applicationType: seed.applicationType,
    policyProfileId: seed.policyProfileId,
    ...(seed.templateId ? { templateId: seed.templateId } : {}),
    config: seed.config,
    status,
    ...(seed.clientId ? { clientId: seed.clientId } : {}),
    revision: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: seed.createdBy ?? SEED_CREATOR,
    ...(status === 'draft' ? {} : { submittedAt: now, submittedBy: seed.createdBy ?? SEED_CREATOR }),
  };
}

export async function applySeed(store: Store, data: SeedData, now: Date): Promise<SeedSummary> {
  const summary: SeedSummary = {
    policyProfiles: 0,
    organizations: 0,
    grants: 0,
    registrations: { created: 0, updated: 0, unchanged: 0 },
  };
  // First: the registrations below may name them. They replace any declared before (one seed file per process).
  const profiles = declaredProfilesOf(data);
  declarePolicyProfiles(profiles);
  summary.policyProfiles = profiles.length;
  for (const org of data.organizations ?? []) {
    await store.organizations.upsert({ id: org.id ?? derivedId('org', org.name), name: org.name, plan: org.plan });
    summary.organizations += 1;
  }
  // Non-default grants first, so a default granted later in the file is never unmarked by them.
  const grants = [...(data.grants ?? [])].sort((a, b) => Number(a.default ?? false) - Number(b.default ?? false));
  for (const grant of grants) {
    await store.grants.grant({
      organizationId: grant.organizationId,
      subject: grant.subject,
      isDefault: grant.default ?? false,
      // Without a role in the file, a new grant is an owner's (as before roles) and an existing one keeps its role.
      ...(grant.role !== undefined && { role: grant.role }),
    });
    summary.grants += 1;
  }
  for (const seed of data.registrations ?? []) {
    const wanted = registrationOf(seed, now);
    const existing = await store.registrations.get(wanted.organizationId, wanted.id);
    if (existing && sameSeededFields(existing, wanted)) {
      summary.registrations.unchanged += 1;
      continue;
    }
    await store.registrations.upsert(
      // An update keeps what the seed does not describe (creation, review history, an open change set).
      existing ? { ...existing, ...seededFields(wanted), updatedAt: now, revision: existing.revision + 1 } : wanted,
    );
    summary.registrations[existing ? 'updated' : 'created'] += 1;
  }
  return summary;
}
