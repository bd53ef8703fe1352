/**
 * Object ids for GraphQL arguments, from the first identity's own answers (as scanner/openapi/object-ids.ts does for
 * path parameters): an `id` argument names an object of the field's own type, an `orderId` argument one of type
 * `Order`. A query of that type without required arguments (`orders`, `myOrders`, `me`) is sent once as the first
 * identity, and the first object's `id` replaces the generated value, so object-level checks (bola.*) probe an
 * object the first identity owns. `objectIds` records which argument came from which operation.
 */
import type { Operation } from '../api.js';
import { jsonBody, parseAnswer } from './graphql-request.js';

export type SendOperation = (operation: Operation) => Promise<string | undefined>;

const named = (type: string): string => type.replace(/[[\]!]/g, '');

/** The object type an id argument names, or undefined when the argument is not an id. */
function targetType(operation: Operation, argument: { name: string; type: string }): string | undefined {
  const type = named(argument.type);
  if (type !== 'ID' && type !== 'String' && type !== 'Int') return undefined;
  if (argument.name === 'id') return operation.graphql?.returnType ? named(operation.graphql.returnType) : undefined;
  const m = /^(.+?)_?(Id|ID|id)$/.exec(argument.name);
  return m ? m[1].charAt(0).toUpperCase() + m[1].slice(1) : undefined;
}

function firstId(value: unknown): string | undefined {
  const item: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  if (typeof item !== 'object' || item === null) return undefined;
  const id = (item as Record<string, unknown>).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/** The operations with id arguments set from the first identity's answers (sources sent once each). */
export async function withGraphqlObjectIds(operations: Operation[], send: SendOperation): Promise<Operation[]> {
  const sources = operations.filter(
    (op) =>
      op.graphql?.kind === 'query' &&
      op.graphql.field &&
      (op.inputs ?? []).every((i) => !i.required || i.pointer?.length !== 2),
  );
  const answers = new Map<string, Promise<string | undefined>>();
  const idOf = async (type: string): Promise<{ value: string; from: string } | undefined> => {
    for (const source of sources.filter((s) => named(s.graphql!.returnType ?? '') === type)) {
      if (!answers.has(source.id)) answers.set(source.id, send(source));
      const body = await answers.get(source.id)!;
      const data = body ? parseAnswer(body)?.data : undefined;
      const value = data ? firstId(data[source.graphql!.field!]) : undefined;
      if (value !== undefined) return { value, from: source.id };
    }
    return undefined;
  };
  const result: Operation[] = [];
  for (const operation of operations) {
    const graphql = operation.graphql;
    if (!graphql?.field || !graphql.arguments) {
      result.push(operation);
      continue;
    }
    const objectIds: NonNullable<Operation['objectIds']> = {};
    const variables = { ...graphql.variables };
    for (const argument of graphql.arguments) {
      const type = targetType(operation, argument);
      const found = type ? await idOf(type) : undefined;
      if (!found) continue;
      variables[argument.name] = named(argument.type) === 'Int' ? Number(found.value) : found.value;
      objectIds[argument.name] = found;
    }
    if (Object.keys(objectIds).length === 0) {
      result.push(operation);
      continue;
    }
    result.push({
      ...operation,
      body: jsonBody({ query: graphql.document, variables, operationName: graphql.operationName }),
      graphql: { ...graphql, variables },
      objectIds,
    });
  }
  return result;
}
