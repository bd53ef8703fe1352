/**
 * graphql.depth_limit — no depth limit: a type cycle of the schema (`User.orders → Order.owner → User`) queried 15
 * levels deep is answered (OWASP API4:2023). Each level can multiply the objects a query loads; a depth limit is the
 * usual defence.
 *
 * Requests (once per endpoint, bounded): the first cycle reachable from a root query field without required arguments,
 * queried 5, then 10, then 15 levels deep (ending in `__typename`), each only when the one before was answered. Cut
 * off at 5 s; an answer slower than 2 s stops the probe and is reported. Skipped without a schema or a cycle.
 * Verdict: failed when 15 levels are answered (or slowly); passed at the first refusal.
 */
import { getNamedType, isObjectType, isNonNullType, type GraphQLField, type GraphQLObjectType } from 'graphql';
import { defineCheck } from '../scanner/api.js';
import { dataOf, schemaOf, sendDocument, slowDetail, SLOW_MS } from './support/graphql-probe.js';

const ISSUE = 'graphql.depth_limit';
const DEPTHS = [5, 10, 15];

type Field = GraphQLField<unknown, unknown>;

const free = (field: Field): boolean => field.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined);

/** A root field, then the fields of one cycle: the path to repeat. */
interface CyclePath {
  prefix: string[];
  cycle: string[];
}

export function findCycle(query: GraphQLObjectType): CyclePath | undefined {
  const walk = (type: GraphQLObjectType, types: string[], fields: string[], depth: number): CyclePath | undefined => {
    if (depth > 6) return undefined;
    for (const field of Object.values(type.getFields())) {
      const next = getNamedType(field.type);
      if (!isObjectType(next) || !free(field)) continue;
      const at = types.indexOf(next.name);
      // types[i] is where fields[i] leads: the cycle is every field after the one that first reached `next`.
      if (at >= 0) return { prefix: fields.slice(0, at + 1), cycle: [...fields.slice(at + 1), field.name] };
      const found = walk(next, [...types, next.name], [...fields, field.name], depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  for (const root of Object.values(query.getFields())) {
    const type = getNamedType(root.type);
    if (!isObjectType(type) || !free(root)) continue;
    const found = walk(type, [type.name], [root.name], 0);
    if (found) return found;
  }
  return undefined;
}

function deepDocument(path: CyclePath, depth: number): string {
  const fields = [...path.prefix];
  while (fields.length < depth) fields.push(path.cycle[(fields.length - path.prefix.length) % path.cycle.length]);
  return `query { ${fields.join(' { ')} { __typename }${' }'.repeat(fields.length)}`;
}

export default defineCheck({
  id: 'graphql.depth_limit',
  name: 'GraphQL Depth Limit',
  issues: [
    {
      id: ISSUE,
      name: 'GraphQL answers a type cycle queried 15 levels deep',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa4-unrestricted-resource-consumption/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:N/VA:L/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: {
        owasp: 'API4:2023 Unrestricted Resource Consumption',
        cwe: 'CWE-770: Allocation of Resources Without Limits or Throttling',
      },
    },
  ],
  scanKinds: ['graphql', 'openapi'],
  graphqlOperations: 'endpoint',
  async run(ctx) {
    const query = schemaOf(ctx.operation)?.getQueryType();
    if (!query) return ctx.skip('no schema was read (give one with --schema)');
    const path = findCycle(query);
    if (!path) return ctx.skip('the schema has no type cycle reachable from a query field without required arguments');
    const root = path.prefix[0];
    const shown = [...path.prefix, ...path.cycle].join('.');
    for (const depth of DEPTHS) {
      const response = await sendDocument(ctx, deepDocument(path, depth));
      const answered = (dataOf(response)?.[root] ?? null) !== null;
      if (response.durationMs > SLOW_MS && answered)
        return ctx.report(ISSUE, {
          detail: slowDetail(`query.${shown} ${depth} levels deep`, response),
          attempt: response,
        });
      if (!answered) return ctx.log.debug(`${depth} levels of ${shown}: refused (${response.status})`);
      if (depth === DEPTHS[DEPTHS.length - 1])
        ctx.report(ISSUE, {
          detail: `the cycle query.${shown} queried ${depth} levels deep was answered (${response.durationMs} ms)`,
          attempt: response,
        });
    }
  },
});
