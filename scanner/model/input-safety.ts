/**
 * Whether an operation's inputs may carry attack values at all (docs/architecture.md §2.10): never on a destructive
 * operation, and never on a write that changes an existing object (PUT/PATCH, a GraphQL update… mutation: the
 * injected value would stay in it, perhaps in the scan identity's own account). Reads and creates (searches, logins,
 * POSTs of new objects) may.
 * Every input-driven check asks this one rule, so the API model's write-safety rule replaces it in one place.
 */
import type { Operation } from '../api.js';
import { changesExistingObject, operationClass } from '../operation-class.js';

/** The reason the operation's inputs must not carry payloads, or undefined when they may. */
export function payloadRefusal(operation: Operation): string | undefined {
  const kind = operationClass(operation);
  if (kind === 'destructive') return 'destructive operation: never sent by injection checks';
  if (kind === 'write' && changesExistingObject(operation))
    return `${operation.operationId ?? operation.method} changes an existing object: injected values would stay in it`;
  return undefined;
}
