/** Finds the repository root (the folder holding our package.json) from source or from dist/. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'gatehouse') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the gatehouse package root above ${start}`);
    dir = parent;
  }
}

const projectRoot = findRoot(dirname(fileURLToPath(import.meta.url)));

export function fromRoot(...segments: string[]): string {
  return join(projectRoot, ...segments);
}
