/**
 * What each scan identity owns and what the scan created: values of resource fields (`user.username = alice`,
 * `order.id = o1`) with their owner and how the scan knows (its own record, its own list or read answers, an object the
 * scan created, a value the user typed in a curl command). The send gate reads it before every write
 * (docs/architecture.md §2.8, safety rule); checks read it to fill references with an identity's own values.
 */
import { sameKind } from './resource-names.js';

export type OwnershipSource = 'self' | 'list' | 'read' | 'created' | 'chosen' | 'given' | 'absent';

export interface OwnedValue {
  resource: string;
  field: string;
  value: string;
  /** The scan identity the object belongs to (`first`, `other`, `admin`…). */
  owner: string;
  source: OwnershipSource;
  /** How the scan learned it (`GET /api/account`, `created by bopla.mass_assignment with POST /api/register`). */
  from: string;
  /** A credential (a password): never shown. */
  secret?: boolean;
}

export interface Ownership {
  add(entry: OwnedValue): void;
  /** Who owns the object whose `field` is `value` (the first entry: an identity's own before what it merely saw). */
  ownerOf(resource: string, field: string, value: string): OwnedValue | undefined;
  /** `owner`'s values of a resource field, in the order learned (its own record first, objects the scan created last). */
  valuesOf(owner: string, resource: string, field: string): OwnedValue[];
  /** Every entry (the report's account of what the scan worked on). */
  all(): readonly OwnedValue[];
}

const RANK: Record<OwnershipSource, number> = { self: 0, given: 1, list: 2, read: 3, created: 4, chosen: 5, absent: 6 };

export function createOwnership(): Ownership {
  const entries: OwnedValue[] = [];
  const matches = (entry: OwnedValue, resource: string, field: string): boolean =>
    sameKind(entry.resource, resource) && entry.field === field;
  return {
    add(entry) {
      const value = String(entry.value);
      if (value === '') return;
      if (entries.some((e) => matches(e, entry.resource, entry.field) && e.value === value && e.owner === entry.owner))
        return;
      entries.push({ ...entry, value });
    },
    ownerOf(resource, field, value) {
      return entries
        .filter((e) => matches(e, resource, field) && e.value === String(value))
        .sort((a, b) => RANK[a.source] - RANK[b.source])[0];
    },
    valuesOf(owner, resource, field) {
      return entries
        .filter((e) => e.owner === owner && matches(e, resource, field))
        .sort((a, b) => RANK[a.source] - RANK[b.source]);
    },
    all: () => entries,
  };
}
