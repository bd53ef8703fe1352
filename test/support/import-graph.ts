/** The import graph of a source tree, for the tests that keep its arrows one way (no cycle, no layer upwards). */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const STATEMENT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/**
 * Relative specifiers a module imports. `import type` is erased at run time (verbatimModuleSyntax); with
 * `runtimeOnly` it is left out, every other import or re-export is evaluated, `import { type X }` included (it
 * leaves `import 'm'` behind).
 */
export function relativeImports(source: string, options: { runtimeOnly?: boolean } = {}): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(STATEMENT)) {
    const [, , typeOnly, specifier] = match;
    if (specifier.startsWith('.') && !(typeOnly && options.runtimeOnly)) specifiers.push(specifier);
  }
  return specifiers;
}

/** file → the files of the tree it imports (absolute paths of the `.ts` sources). */
export function importGraph(root: string, options: { runtimeOnly?: boolean } = {}): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const targets = relativeImports(readFileSync(file, 'utf8'), options).map((specifier) =>
      resolve(dirname(file), specifier.replace(/\.js$/, '.ts')),
    );
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** One cycle of the graph as the path that closes it (first node repeated last), or undefined. */
export function findCycle<T>(graph: Map<T, Iterable<T>>): T[] | undefined {
  const state = new Map<T, 'open' | 'done'>();
  const path: T[] = [];
  const visit = (node: T): T[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
