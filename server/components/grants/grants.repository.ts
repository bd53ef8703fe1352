/** Storage of API-access grants (docs/architecture.md §1.2): the interface and the embedded (memory) implementation. */
import { ROLE_OF_GRANTS_WITHOUT_ONE, type Grant, type GrantRole } from './grants.model.js';

interface GrantInput {
  organizationId: string;
  subject: string;
  isDefault: boolean;
  /** Absent: an existing grant keeps its role, a new one is `owner` (what every grant gave before roles). */
  role?: GrantRole;
}

export interface GrantRepository {
  /**
   * Creates or updates the grant of `subject` on `organizationId` (idempotent). With `isDefault: true` every other
   * grant of the subject loses its default mark in the same operation, so a subject never has two defaults.
   * `role` sets the grant's role; without it an existing grant keeps its own.
   */
  grant(input: GrantInput): Promise<Grant>;
  /** Removes the grant; false when there was none. */
  revoke(input: { organizationId: string; subject: string }): Promise<boolean>;
  find(subject: string, organizationId: string): Promise<Grant | null>;
  /** Every grant of the subject, ordered by organization id. */
  listForSubject(subject: string): Promise<Grant[]>;
  defaultFor(subject: string): Promise<Grant | null>;
}

function key(subject: string, organizationId: string): string {
  // JSON keeps the pair unambiguous whatever characters a subject contains.
  return JSON.stringify([subject, organizationId]);
}

function copy(grant: Grant): Grant {
  return { ...grant, createdAt: new Date(grant.createdAt) };
}

export function createMemoryGrantRepository(options: { clock?: () => Date } = {}): GrantRepository {
  const clock = options.clock ?? (() => new Date());
  const grants = new Map<string, Grant>();

  function ofSubject(subject: string): Grant[] {
    return [...grants.values()]
      .filter((g) => g.subject === subject)
      .sort((a, b) => (a.organizationId < b.organizationId ? -1 : a.organizationId > b.organizationId ? 1 : 0));
  }

  return {
    async grant(input) {
      if (input.isDefault) for (const g of ofSubject(input.subject)) g.isDefault = false;
      const k = key(input.subject, input.organizationId);
      const existing = grants.get(k);
      const grant: Grant = {
        organizationId: input.organizationId,
        subject: input.subject,
        role: input.role ?? existing?.role ?? ROLE_OF_GRANTS_WITHOUT_ONE,
        isDefault: input.isDefault,
        createdAt: existing?.createdAt ?? clock(),
      };
      grants.set(k, grant);
      return copy(grant);
    },
    async revoke(input) {
      return grants.delete(key(input.subject, input.organizationId));
    },
    async find(subject, organizationId) {
      const grant = grants.get(key(subject, organizationId));
      return grant ? copy(grant) : null;
    },
    async listForSubject(subject) {
      return ofSubject(subject).map(copy);
    },
    async defaultFor(subject) {
      const grant = ofSubject(subject).find((g) => g.isDefault);
      return grant ? copy(grant) : null;
    },
  };
}
