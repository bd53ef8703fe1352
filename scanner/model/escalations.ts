/**
 * Privilege escalations a check proved (docs/architecture.md §2.8, item "privilege chains"): which identity raised its
 * own role, through which operation, and the two requests that raise it and set it back. The engine replays the
 * raise after the checks, runs the function-level and input checks again as the raised identity where it was
 * refused, then restores (scanner/engine/follow-chains.ts).
 */
import type { Operation, ProbeRequest } from '../api.js';
import type { ShapeField } from './operation-shape.js';
import { PRIVILEGE_FIELD } from './write-rule.js';
import type { ApiDescription } from './describe-api.js';

export interface Escalation {
  /** The scan identity that raised itself (`first`). */
  identity: string;
  operation: Operation;
  field: string;
  from: unknown;
  to: unknown;
  /** Sends the raising change again (as the identity, `restores` set). */
  raise: ProbeRequest & { url: string; body: string; as: string };
  /** Sets the field back to `from`. */
  restore: ProbeRequest & { url: string; body: string; as: string };
  /** What step 1 of the chain showed (the finding's own sentence). */
  detail: string;
}

/** The top-level body fields of `operation` that grant privileges (a role, permissions, groups), with their enums. */
export function privilegeFieldsOf(description: ApiDescription, operation: Operation): ShapeField[] {
  return description
    .shapeOf(operation)
    .fields.filter((f) => f.in === 'body' && f.pointer === `/${f.name}` && PRIVILEGE_FIELD.test(f.name));
}
