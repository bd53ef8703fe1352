/**
 * The response schema an operation promises for a status (exact, then `2XX`, then `default`), from the OpenAPI
 * description, and what it says about how many records may come back.
 */
import type { Operation } from '../../scanner/api.js';

type Schema = Record<string, unknown>;

export function promisedSchema(operation: Operation, status: number): Schema | undefined {
  const schemas = operation.responseSchemas ?? {};
  const found =
    schemas[String(status)] ??
    schemas[`${Math.floor(status / 100)}XX`] ??
    schemas[`${Math.floor(status / 100)}xx`] ??
    schemas.default;
  return typeof found === 'object' && found !== null ? (found as Schema) : undefined;
}

/** At most how many records the schema allows at the top level: 1 for an object, `maxItems` for a bounded array. */
export function promisedRecords(schema: Schema): number | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) return typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  if (types.includes('object') || (schema.type === undefined && typeof schema.properties === 'object')) return 1;
  return undefined;
}
