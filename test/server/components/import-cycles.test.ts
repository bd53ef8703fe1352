/**
 * Components depend on each other one way (issue 12 §3): no runtime import cycle between server/components/*.
 * `import type` is erased (verbatimModuleSyntax), so it may point anywhere; every other import or re-export is
 * evaluated at run time, `import { type X }` included (it leaves `import 'm'` behind).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const COMPONENTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../server/components');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Relative specifiers a module loads at run time: static imports and re-exports that are not `type`-only. */
export function runtimeImports(source: string): string[] {
  const specifiers: string[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(statement)) {
    const [, , typeOnly, specifier] = match;
    if (!typeOnly && specifier.startsWith('.')) specifiers.push(specifier);
  }
  return specifiers;
}

function componentOf(file: string): string | undefined {
  const path = relative(COMPONENTS, file);
  return path.startsWith('..') ? undefined : path.split(sep)[0];
}

/** component → the components it imports at run time, with one file that does it (for the message). */
function componentGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(COMPONENTS)) {
    const from = componentOf(file) as string;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const specifier of runtimeImports(readFileSync(file, 'utf8'))) {
      const to = componentOf(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      if (to !== undefined && to !== from && !edges.has(to)) edges.set(to, relative(COMPONENTS, file));
    }
  }
  return graph;
}

function findCycle(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
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

describe('server components', () => {
  it('tell runtime imports from type-only ones', () => {
    const source = [
      "import type { A } from '../a/a.js';",
      "import { type B } from '../b/b.js';",
      "import {\n  c,\n  d,\n} from '../c/c.js';",
      "export { e } from '../e/e.js';",
      "export type { F } from '../f/f.js';",
      "import '../g/g.js';",
      "import mongoose from 'mongoose';",
    ].join('\n');
    expect(runtimeImports(source)).to.deep.equal(['../b/b.js', '../c/c.js', '../e/e.js', '../g/g.js']);
  });

  it('import each other at run time one way only: no cycle between components', () => {
    const graph = componentGraph();
    expect(graph.size).to.be.greaterThan(5);
    const cycle = findCycle(graph);
    const via = cycle?.slice(1).map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i])?.get(to)})`);
    expect(via, `runtime import cycle: ${via?.join(', ')}`).to.equal(undefined);
  });
});
