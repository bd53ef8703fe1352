/**
 * The operations of a GraphQL scan: the endpoint itself (`POST /graphql`, `query{__typename}`: where endpoint-wide
 * checks and the `graphql.*` checks run), then one operation per root field of the query type and of the mutation type
 * (field-operation.ts). Subscriptions are not scanned (they need a WebSocket transport).
 */
import { printSchema, type GraphQLSchema } from 'graphql';
import type { Operation } from '../api.js';
import { fieldOperation } from './field-operation.js';

export const TYPENAME_DOCUMENT = 'query{__typename}';

/** The endpoint operation, from the one `scan graphql` builds out of the command line. */
function endpointOperation(base: Operation, schemaSource: string, sdl?: string): Operation {
  return {
    ...base,
    id: `POST ${new URL(base.url).pathname}`,
    graphql: {
      endpoint: base.url,
      kind: 'query',
      document: TYPENAME_DOCUMENT,
      variables: {},
      schemaSource,
      ...(sdl ? { sdl } : {}),
    },
  };
}

export function graphqlOperations(
  schema: GraphQLSchema | undefined,
  base: Operation,
  schemaSource: string,
): Operation[] {
  const sdl = schema ? printSchema(schema) : undefined;
  const endpoint = endpointOperation(base, schemaSource, sdl);
  if (!schema) return [endpoint];
  const context = { endpoint, schemaSource, ...(sdl ? { sdl } : {}) };
  const operations = [endpoint];
  const roots: ['query' | 'mutation', ReturnType<GraphQLSchema['getQueryType']>][] = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ];
  for (const [kind, type] of roots) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.name.startsWith('__')) continue;
      operations.push(fieldOperation(kind, field, context));
    }
  }
  return operations;
}
