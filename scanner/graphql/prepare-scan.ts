/**
 * What `scan graphql` does before the checks run, over the scan's own transport (rate, TLS, proxy, send gate): reads
 * the schema (read-schema.ts), turns it into operations (operations.ts) and, with a second identity to compare, fills
 * id arguments with the first identity's own objects (object-ids.ts).
 */
import type { Operation } from '../api.js';
import { createScanHttp, type TransportOptions } from '../http.js';
import { buildWireRequest } from '../probe-request.js';
import { withGraphqlObjectIds } from './object-ids.js';
import { graphqlOperations } from './operations.js';
import { readSchema } from './read-schema.js';

export interface GraphqlScanOptions {
  schemaFile?: string;
  cwd: string;
  /** Fill id arguments from the first identity's answers (given `--as-other`). */
  objectIds: boolean;
  /** Progress lines (stderr): how the schema was obtained. */
  note?: (line: string) => void;
}

export async function prepareGraphqlScan(
  base: Operation,
  options: GraphqlScanOptions,
  transport: TransportOptions,
  signal?: AbortSignal,
): Promise<{ operations: Operation[]; requestsSent: number }> {
  const http = createScanHttp(transport);
  try {
    const read = await readSchema(
      base.url,
      (probe) => http.send(buildWireRequest(base, probe, signal)).catch(() => undefined),
      { schemaFile: options.schemaFile, cwd: options.cwd },
    );
    let operations = graphqlOperations(read.schema, base, read.source);
    options.note?.(
      read.schema
        ? `GraphQL schema from ${read.source}: ${operations.length - 1} root field${operations.length === 2 ? '' : 's'}`
        : `no GraphQL schema: ${read.reason}`,
    );
    if (options.objectIds)
      operations = await withGraphqlObjectIds(operations, (operation) =>
        http
          .send(buildWireRequest(operation, {}, signal))
          .then((r) => r.body)
          .catch(() => undefined),
      );
    return { operations, requestsSent: http.requestsSent() };
  } finally {
    http.close();
  }
}
