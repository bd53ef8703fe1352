/** Every answered request of the scan by operation id: what passive checks read (`ctx.observed()`). */
import type { ProbeResponse } from '../../api.js';
import type { Attempt } from '../../scan-result.js';

/** One exchange a check had, kept for the passive checks of the same operation. */
interface LoggedExchange {
  checkId: string;
  attempt: Attempt;
  response: ProbeResponse;
}

export interface ExchangeLog {
  record(operationId: string, exchange: LoggedExchange): void;
  of(operationId: string): readonly LoggedExchange[];
}

export function createExchangeLog(): ExchangeLog {
  const byOperation = new Map<string, LoggedExchange[]>();
  return {
    record(operationId, exchange) {
      const list = byOperation.get(operationId) ?? [];
      list.push(exchange);
      byOperation.set(operationId, list);
    },
    of: (operationId) => byOperation.get(operationId) ?? [],
  };
}
