/** Facts checks publish (`ctx.setFact`), by check and operation: what their dependents read (`ctx.fact`). */

export interface FactStore {
  get(checkId: string, operationId: string): Map<string, unknown> | undefined;
  publish(checkId: string, operationId: string): Map<string, unknown>;
}

export function createFactStore(): FactStore {
  const facts = new Map<string, Map<string, unknown>>();
  const key = (checkId: string, operationId: string): string => `${checkId}\u0000${operationId}`;
  return {
    get: (checkId, operationId) => facts.get(key(checkId, operationId)),
    publish(checkId, operationId) {
      const existing = facts.get(key(checkId, operationId));
      if (existing) return existing;
      const created = new Map<string, unknown>();
      facts.set(key(checkId, operationId), created);
      return created;
    },
  };
}
