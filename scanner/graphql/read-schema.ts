/**
 * Reads the schema of a GraphQL endpoint before the checks run: the `--schema` file when given; else the full
 * introspection query (graphql-js `getIntrospectionQuery`), plainly and then through each known bypass
 * (introspection-variants.ts); else the names validation errors suggest (suggestions.ts). Says how it was obtained
 * (`schemaSource`, the report's `graphql.schemaSource`), or that it was not: the scan then covers the endpoint only.
 */
import {
  buildClientSchema,
  buildSchema,
  getIntrospectionQuery,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import type { ProbeRequest, ProbeResponse } from '../api.js';
import { jsonBody, JSON_HEADERS } from './graphql-request.js';
import { BYPASSES, PLAIN, schemaIn } from './introspection-variants.js';
import { rawErrors, recoverBySuggestions } from './suggestions.js';
import { loadSchemaFile } from './schema-file.js';

/** Sends one request to the endpoint as the scan's first identity; undefined on a transport error. */
export type SendProbe = (probe: ProbeRequest) => Promise<ProbeResponse | undefined>;

export interface SchemaRead {
  schema?: GraphQLSchema;
  /** `file`, `introspection`, `introspection bypass: <variant>`, `validation errors and suggestions (partial)`, or `none`. */
  source: string;
  /** Why no schema was read, when none was. */
  reason?: string;
}

const SCHEMA_SOURCES = {
  file: 'file',
  introspection: 'introspection',
  suggestions: 'validation errors and suggestions (partial)',
  none: 'none',
} as const;

export async function readSchema(
  endpoint: string,
  send: SendProbe,
  options: { schemaFile?: string; cwd: string; suggestionBudget?: number },
): Promise<SchemaRead> {
  if (options.schemaFile) return { schema: await loadSchemaFile(options.schemaFile, options.cwd), source: 'file' };
  const query = getIntrospectionQuery({ descriptions: true });
  for (const variant of [PLAIN, ...BYPASSES]) {
    const response = await send(variant.request(endpoint, query));
    const schema = response ? schemaIn(response.body) : undefined;
    if (!schema) continue;
    try {
      const built = buildClientSchema({ __schema: schema } as unknown as IntrospectionQuery);
      return {
        schema: built,
        source: variant === PLAIN ? SCHEMA_SOURCES.introspection : `introspection bypass: ${variant.name}`,
      };
    } catch {
      // A partial or altered introspection answer: try the next way.
    }
  }
  const sdl = await recoverBySuggestions(async (document) => {
    const response = await send({ method: 'POST', headers: { ...JSON_HEADERS }, body: jsonBody({ query: document }) });
    return response ? rawErrors(response.body) : undefined;
  }, options.suggestionBudget);
  if (sdl) {
    try {
      return {
        schema: buildSchema(sdl, { assumeValid: true, assumeValidSDL: true }),
        source: SCHEMA_SOURCES.suggestions,
      };
    } catch {
      // fall through: nothing usable was recovered
    }
  }
  return {
    source: SCHEMA_SOURCES.none,
    reason:
      'introspection is refused (also through the known bypasses) and no field suggestions came back: give the schema with --schema FILE',
  };
}
