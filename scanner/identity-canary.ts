/**
 * The identity canary (docs/architecture.md §2.6): the supplied credential is re-validated with the baseline request (a read
 * operation sent as given) at the start, every N requests of the scan and at the end. When it stops working mid-scan,
 * checks that send it stop (skipped, with when and why), so a user deleted or a token revoked under the scan never
 * turns into findings or passes that mean nothing.
 */
import type { Operation } from './api.js';
import type { ScanHttp } from './http.js';
import { operationClass } from './operation-class.js';
import { buildWireRequest } from './probe-request.js';

const DEFAULT_CANARY_EVERY = 25;

const REJECTED = new Set([401, 403]);

interface CanaryLoss {
  /** Requests the scan had sent when the loss was seen. */
  afterRequests: number;
  at: Date;
  status: number;
  reason: string;
}

export interface CanaryState {
  operationId: string;
  every: number;
  /** Canary requests sent (start, periodic, end). */
  checks: number;
  startStatus?: number;
  endStatus?: number;
  lost?: CanaryLoss;
}

export interface IdentityCanary {
  /** A response to the canary operation sent as given (the baseline request): re-validates without a request of its own. */
  observe(operationId: string, asGiven: boolean, status: number): void;
  /** Counts one request of the scan; when `every` requests passed without a validation, sends the canary itself. */
  counted(): void;
  /** The loss, once seen: checks that send the credential stop. */
  lost(): CanaryLoss | undefined;
  /** Re-validates once more at the end of a scan long enough to have needed periodic validation. */
  end(): Promise<void>;
  state(): CanaryState;
}

/** The operation the canary re-sends: the first read operation that carries a credential with a value. */
export function canaryOperation(operations: readonly Operation[]): Operation | undefined {
  return operations.find((op) => op.credential && op.credential.value.trim() !== '' && operationClass(op) === 'read');
}

/**
 * Every response of the canary operation sent as given counts as a validation (the checks send that baseline request
 * anyway: auth.baseline first of all), so a short scan costs no extra request; the canary sends its own only when
 * `every` requests went by without one, and once at the end of such a scan.
 */
export function createIdentityCanary(
  http: ScanHttp,
  operation: Operation,
  every = DEFAULT_CANARY_EVERY,
  signal?: AbortSignal,
): IdentityCanary {
  const state: CanaryState = { operationId: operation.id, every, checks: 0 };
  let sent = 0;
  let validatedAt = 0;
  let inFlight: Promise<void> | undefined;

  const judge = (status: number, when: string): void => {
    state.checks += 1;
    validatedAt = sent;
    state.startStatus ??= status;
    if (state.lost || REJECTED.has(state.startStatus) || !REJECTED.has(status)) return;
    state.lost = {
      afterRequests: http.requestsSent(),
      at: new Date(),
      status,
      reason: `identity canary: the supplied credential stopped working ${when} (${operation.id} answered ${status}, ${state.startStatus} before)`,
    };
  };

  const probe = async (when: 'periodic' | 'end'): Promise<void> => {
    let status: number;
    try {
      status = (await http.send(buildWireRequest(operation, {}, signal))).status;
    } catch {
      return; // a transport error says nothing about the credential
    }
    if (when === 'end') state.endStatus = status;
    judge(status, when === 'end' ? 'by the end of the scan' : `after ${http.requestsSent()} requests`);
  };

  return {
    observe(operationId, asGiven, status) {
      if (operationId === operation.id && asGiven) judge(status, `after ${http.requestsSent()} requests`);
    },
    counted() {
      sent += 1;
      if (sent - validatedAt < every || inFlight || state.lost || signal?.aborted) return;
      inFlight = probe('periodic').finally(() => {
        inFlight = undefined;
      });
    },
    lost: () => state.lost,
    async end() {
      await inFlight;
      if (!signal?.aborted && !state.lost && sent > every) await probe('end');
    },
    state: () => ({ ...state }),
  };
}
