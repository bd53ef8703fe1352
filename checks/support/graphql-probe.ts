/**
 * What the `graphql.*` checks share: sending a document to the scan's GraphQL endpoint (JSON POST, the operation's
 * credential and headers), the schema the scan read (`operation.graphql.sdl`, built once per SDL text), a harmless
 * field to repeat, and the bounds every resource probe keeps (a per-request cap, and "slow" meaning a few seconds).
 */
import { buildSchema, getNamedType, isEnumType, isScalarType, type GraphQLSchema } from 'graphql';
import type { CheckContext, Operation, ProbeRequest, ProbeResponse } from '../../scanner/api.js';
import { JSON_HEADERS, jsonBody, parseAnswer, type GraphqlRequest } from '../../scanner/graphql/graphql-request.js';

/** No probe of a resource check may keep the target busier than this; the answer is cut off there. */
export const PROBE_TIMEOUT_MS = 5000;
/** An answer slower than this is a sign: the probe stops and says so. */
export const SLOW_MS = 2000;

export function endpointOf(operation: Operation): string {
  return operation.graphql?.endpoint ?? operation.url;
}

/** The probe that POSTs `request` as JSON to the endpoint. */
export function postRequest(operation: Operation, request: GraphqlRequest): ProbeRequest {
  return {
    method: 'POST',
    url: endpointOf(operation),
    headers: { ...JSON_HEADERS },
    body: jsonBody(request),
    timeoutMs: PROBE_TIMEOUT_MS,
  };
}

export function sendDocument(ctx: CheckContext, query: string): Promise<ProbeResponse> {
  return ctx.http.send(postRequest(ctx.operation, { query }));
}

/** The answer's data when it carries some (a non-null value under every key asked), else undefined. */
export function dataOf(response: ProbeResponse): Record<string, unknown> | undefined {
  if (response.status < 200 || response.status >= 300) return undefined;
  const data = parseAnswer(response.body)?.data;
  return data && Object.keys(data).length > 0 ? data : undefined;
}

const schemas = new Map<string, GraphQLSchema>();

/** The schema the scan read, or undefined when it read none. */
export function schemaOf(operation: Operation): GraphQLSchema | undefined {
  const sdl = operation.graphql?.sdl;
  if (!sdl) return undefined;
  let schema = schemas.get(sdl);
  if (!schema) {
    schema = buildSchema(sdl, { assumeValid: true, assumeValidSDL: true });
    schemas.set(sdl, schema);
  }
  return schema;
}

/** The query root's name (`Query` unless the schema says otherwise). */
export function queryTypeName(operation: Operation): string {
  return schemaOf(operation)?.getQueryType()?.name ?? 'Query';
}

/** A root query field that takes no argument and returns a scalar (cheap to repeat), else `__typename`. */
export function cheapField(operation: Operation): string {
  const query = schemaOf(operation)?.getQueryType();
  const field = Object.values(query?.getFields() ?? {}).find(
    (f) => f.args.length === 0 && (isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type))),
  );
  return field?.name ?? '__typename';
}

/** The detail's words for a slow answer: the probe stopped there. */
export const slowDetail = (what: string, response: ProbeResponse): string =>
  `${what} took ${response.durationMs} ms (over ${SLOW_MS} ms): the probe stopped there`;
