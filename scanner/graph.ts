/** The check dependency graph: missing dependencies, cycles (with their path), topological order with ties by id. */
import { scannerError } from './errors.js';

export interface GraphNode {
  id: string;
  dependsOn?: string[];
}

/** Throws `missing_dependency` naming both checks when a `dependsOn` entry is not among `nodes`. */
export function assertDependenciesExist(nodes: GraphNode[], describe: (id: string) => string = (id) => id): void {
  const ids = new Set(nodes.map((n) => n.id));
  for (const node of [...nodes].sort((a, b) => compareIds(a.id, b.id))) {
    for (const dep of node.dependsOn ?? []) {
      if (!ids.has(dep))
        throw scannerError('missing_dependency', `${describe(node.id)}: depends on "${dep}", which does not exist`);
    }
  }
}

/** The first cycle found (e.g. `['a', 'b', 'a']`), or undefined. Deterministic: nodes are visited by id. */
function findCycle(nodes: GraphNode[]): string[] | undefined {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const seen = state.get(id);
    if (seen === 'done') return undefined;
    if (seen === 'visiting') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of [...(byId.get(id)?.dependsOn ?? [])].sort(compareIds)) {
      if (!byId.has(dep)) continue;
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const id of [...byId.keys()].sort(compareIds)) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Throws `check_cycle` with the path (`a → b → a`). */
export function assertAcyclic(nodes: GraphNode[], describe: (id: string) => string = (id) => id): void {
  const cycle = findCycle(nodes);
  if (cycle) throw scannerError('check_cycle', `${describe(cycle[0])}: dependency cycle ${cycle.join(' → ')}`);
}

/** Kahn's algorithm; among checks that are ready at the same time, the smaller id comes first. */
export function topologicalOrder<T extends GraphNode>(nodes: T[]): T[] {
  assertDependenciesExist(nodes);
  assertAcyclic(nodes);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const remaining = new Map(nodes.map((n) => [n.id, new Set(n.dependsOn ?? [])]));
  const dependents = new Map<string, string[]>();
  for (const n of nodes)
    for (const dep of n.dependsOn ?? []) dependents.set(dep, [...(dependents.get(dep) ?? []), n.id]);
  const ready = nodes.filter((n) => (n.dependsOn ?? []).length === 0).map((n) => n.id);
  const order: T[] = [];
  while (ready.length > 0) {
    ready.sort(compareIds);
    const id = ready.shift()!;
    order.push(byId.get(id)!);
    for (const next of dependents.get(id) ?? []) {
      const waiting = remaining.get(next)!;
      waiting.delete(id);
      if (waiting.size === 0) ready.push(next);
    }
  }
  return order;
}

/** `ids` plus everything they depend on, transitively. */
export function withDependencies(ids: Iterable<string>, nodes: GraphNode[]): Set<string> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const result = new Set<string>();
  const add = (id: string): void => {
    if (result.has(id)) return;
    result.add(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) add(dep);
  };
  for (const id of ids) add(id);
  return result;
}

export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
