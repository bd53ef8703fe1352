/**
 * Shared verdicts' keys (`CheckDefinition.sharedVerdict`): one per (check, operation), settled once the check's
 * dependencies ran there — `undefined` when the operation is judged on its own (no key, or the task ended first).
 */

export interface SharedVerdictKeys {
  /** The key once it is known; later operations wait on earlier ones' keys to find their representative. */
  keyOf(checkId: string, operationId: string): Promise<string | undefined>;
  /** Settles the key; only the first call counts. */
  settle(checkId: string, operationId: string, key: string | undefined): void;
}

export function createSharedVerdictKeys(): SharedVerdictKeys {
  const entries = new Map<string, { promise: Promise<string | undefined>; settle: (key?: string) => void }>();
  const entryOf = (checkId: string, operationId: string) => {
    const k = `${checkId}\u0000${operationId}`;
    let entry = entries.get(k);
    if (!entry) {
      let settle!: (key?: string) => void;
      const promise = new Promise<string | undefined>((resolve) => (settle = resolve));
      entry = { promise, settle };
      entries.set(k, entry);
    }
    return entry;
  };
  return {
    keyOf: (checkId, operationId) => entryOf(checkId, operationId).promise,
    settle: (checkId, operationId, key) => entryOf(checkId, operationId).settle(key),
  };
}
