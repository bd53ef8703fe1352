/** Runs `withObjectIds` over the scan's transport (its own client, same rate, TLS and proxy), before the checks start. */
import type { Operation } from '../api.js';
import { createScanHttp, type TransportOptions } from '../http.js';
import { buildWireRequest } from '../probe-request.js';
import { withObjectIds } from './object-ids.js';

export async function objectIdsFromResponses(
  operations: Operation[],
  transport: TransportOptions,
  signal?: AbortSignal,
): Promise<{ operations: Operation[]; requestsSent: number }> {
  const http = createScanHttp(transport);
  try {
    // A collection that cannot be read leaves its parameters generated; the checks then report what they see.
    const prepared = await withObjectIds(operations, (operation) =>
      http.send(buildWireRequest(operation, {}, signal)).catch(() => undefined),
    );
    return { operations: prepared, requestsSent: http.requestsSent() };
  } finally {
    http.close();
  }
}
