/**
 * Components depend on each other one way (issue 12 §3): no runtime import cycle between server/components/*.
 * `import type` is erased (verbatimModuleSyntax), so it may point anywhere; every other import or re-export is
 * evaluated at run time, `import { type X }` included (it leaves `import 'm'` behind).
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCycle, relativeImports, sourceFiles } from '../../support/import-graph.js';

const COMPONENTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../server/components');

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
    for (const specifier of relativeImports(readFileSync(file, 'utf8'), { runtimeOnly: true })) {
      const to = componentOf(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      if (to !== undefined && to !== from && !edges.has(to)) edges.set(to, relative(COMPONENTS, file));
    }
  }
  return graph;
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
    expect(relativeImports(source, { runtimeOnly: true })).to.deep.equal([
      '../b/b.js',
      '../c/c.js',
      '../e/e.js',
      '../g/g.js',
    ]);
  });

  it('import each other at run time one way only: no cycle between components', () => {
    const graph = componentGraph();
    expect(graph.size).to.be.greaterThan(5);
    const cycle = findCycle(new Map([...graph].map(([from, edges]) => [from, [...edges.keys()]])));
    const via = cycle?.slice(1).map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i])?.get(to)})`);
    expect(via, `runtime import cycle: ${via?.join(', ')}`).to.equal(undefined);
  });
});
