/** Storage of organizations: the interface every implementation honours, and the embedded (memory) one. */
import { newId } from '../../ids.js';
import type { Organization, Plan } from './organizations.model.js';

interface NewOrganization {
  /** Optional: seeds and imports keep their ids; otherwise a new `org_…` id is generated. */
  id?: string;
  name: string;
  plan: Plan;
}

export interface OrganizationRepository {
  get(id: string): Promise<Organization | null>;
  /** The organizations among `ids` that exist, ordered by id; unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Organization[]>;
  create(input: NewOrganization): Promise<Organization>;
  /** Inserts or replaces name and plan by id (idempotent seeding); `createdAt` is kept when the record exists. */
  upsert(input: NewOrganization & { id: string; createdAt?: Date }): Promise<Organization>;
  /** Changes the plan; null when the organization does not exist. */
  setPlan(id: string, plan: Plan): Promise<Organization | null>;
}

function copy(org: Organization): Organization {
  return { ...org, createdAt: new Date(org.createdAt) };
}

/** Records are copied in and out, so callers can never mutate what is stored. */
export function createMemoryOrganizationRepository(options: { clock?: () => Date } = {}): OrganizationRepository {
  const clock = options.clock ?? (() => new Date());
  const byId = new Map<string, Organization>();

  return {
    async get(id) {
      const org = byId.get(id);
      return org ? copy(org) : null;
    },
    async getMany(ids) {
      return [...new Set(ids)].sort().flatMap((id) => {
        const org = byId.get(id);
        return org ? [copy(org)] : [];
      });
    },
    async create(input) {
      const id = input.id ?? newId('org');
      if (byId.has(id)) throw new Error(`organization ${id} already exists`);
      const org: Organization = { id, name: input.name, plan: input.plan, createdAt: clock() };
      byId.set(id, org);
      return copy(org);
    },
    async upsert(input) {
      const existing = byId.get(input.id);
      const org: Organization = {
        id: input.id,
        name: input.name,
        plan: input.plan,
        createdAt: existing?.createdAt ?? input.createdAt ?? clock(),
      };
      byId.set(org.id, org);
      return copy(org);
    },
    async setPlan(id, plan) {
      const org = byId.get(id);
      if (!org) return null;
      org.plan = plan;
      return copy(org);
    },
  };
}
