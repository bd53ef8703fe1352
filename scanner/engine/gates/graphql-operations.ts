/**
 * `graphqlOperations`: a check written for GraphQL runs on the GraphQL operations of any scan kind (`scan graphql`, and
 * the endpoints `scan openapi` hands to scanner/graphql/) — once per endpoint, or on each root field — and on no other
 * operation, where its skip is not reported (scan-run.ts `reports`): a REST operation gets no row for it.
 */
import type { CheckDefinition, Operation } from '../../api.js';
import type { CheckResult } from '../../scan-result.js';
import type { CheckTask } from '../check-task.js';

/** Whether `definition` runs on `operation` by its `graphqlOperations` (every operation when it has none). */
export function runsOnGraphqlOperation(definition: CheckDefinition, operation: Operation): boolean {
  const wanted = definition.graphqlOperations;
  if (!wanted) return true;
  if (!operation.graphql) return false;
  return wanted === 'endpoint' ? operation.graphql.field === undefined : operation.graphql.field !== undefined;
}

export default function graphqlOperations(task: CheckTask): CheckResult | undefined {
  const { definition, operation } = task;
  if (runsOnGraphqlOperation(definition, operation)) return undefined;
  const where = definition.graphqlOperations === 'endpoint' ? 'GraphQL endpoints' : 'GraphQL fields';
  return task.result('skipped', { reason: `runs on ${where} only` });
}
