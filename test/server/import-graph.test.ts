/**
 * The service's layers point one way: server/db (primitives: connection, batching, conditional writes, keyset
 * filters, query limits, errors) ← the components (repositories, services, routes) ← server/store (the assembly of
 * every repository into a store, its migration) ← the apps and `main`. No file imports another in a cycle, type-only
 * imports included: a type cycle is still a knot a reader has to untie.
 */
import { expect } from 'chai';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCycle, importGraph } from '../support/import-graph.js';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '../../server');
const inServer = (file: string) => relative(SERVER, file);

describe('the server import graph', () => {
  const graph = importGraph(SERVER);

  it('has no cycle, type-only imports included', () => {
    expect(graph.size).to.be.greaterThan(100);
    const cycle = findCycle(graph);
    expect(cycle?.map(inServer), `import cycle: ${cycle?.map(inServer).join(' → ')}`).to.equal(undefined);
  });

  /** Imports from files under `from` into files under one of `into` (as "from → into" lines). */
  function importsInto(from: string, into: string[]): string[] {
    const found: string[] = [];
    for (const [file, targets] of graph) {
      if (!inServer(file).startsWith(from)) continue;
      for (const target of targets)
        if (into.some((prefix) => inServer(target).startsWith(prefix)))
          found.push(`${inServer(file)} → ${inServer(target)}`);
    }
    return found;
  }

  it('keeps the database primitives free of what is built on them', () => {
    expect(importsInto('db/', ['store/', 'components/', 'deps.ts', 'middleware/', 'http/'])).to.deep.equal([]);
  });

  it('keeps the components free of the store that assembles them', () => {
    expect(importsInto('components/', ['store/'])).to.deep.equal([]);
  });
});
