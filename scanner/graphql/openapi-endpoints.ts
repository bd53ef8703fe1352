/**
 * GraphQL endpoints inside an OpenAPI description (`POST /graphql` documented as one operation): `scan openapi` hands
 * each to the GraphQL scan's own preparation (prepare-scan.ts), so the endpoint's schema is read and each of its root
 * fields becomes an operation of the scan like any other, instead of one POST with a sample body.
 */
import type { Operation } from '../api.js';
import type { TransportOptions } from '../http.js';
import { JSON_HEADERS, jsonBody } from './graphql-request.js';
import { TYPENAME_DOCUMENT } from './operations.js';
import { prepareGraphqlScan, type GraphqlScanOptions } from './prepare-scan.js';

const GRAPHQL_PATH = /(^|\/)(graphql|gql)(\/|$)/i;

/** A POST operation whose path, operationId, summary or tags name GraphQL. */
export function isGraphqlEndpoint(operation: Operation): boolean {
  if (operation.method.toUpperCase() !== 'POST' || operation.graphql) return false;
  if (GRAPHQL_PATH.test(operation.path)) return true;
  return [operation.operationId, operation.summary, ...(operation.tags ?? [])].some(
    (name) => typeof name === 'string' && /graphql/i.test(name),
  );
}

/** The operations with each GraphQL endpoint replaced by the GraphQL scan's operations (the endpoint, then its fields). */
export async function expandGraphqlEndpoints(
  operations: Operation[],
  options: Omit<GraphqlScanOptions, 'schemaFile'>,
  transport: TransportOptions,
  signal?: AbortSignal,
): Promise<{ operations: Operation[]; requestsSent: number }> {
  const expanded: Operation[] = [];
  let requestsSent = 0;
  for (const operation of operations) {
    if (!isGraphqlEndpoint(operation)) {
      expanded.push(operation);
      continue;
    }
    const base: Operation = {
      ...operation,
      headers: { ...operation.headers, 'Content-Type': [JSON_HEADERS['content-type']] },
      body: jsonBody({ query: TYPENAME_DOCUMENT }),
    };
    const prepared = await prepareGraphqlScan(base, options, transport, signal);
    requestsSent += prepared.requestsSent;
    expanded.push(...prepared.operations);
  }
  return { operations: expanded, requestsSent };
}
