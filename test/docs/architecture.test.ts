/**
 * docs/architecture.md keeps the section numbers code comments cite: every `docs/architecture.md §X` names a heading
 * of the page; and nothing outside docs/ cites a document the repository does not contain.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';

const PAGE = fromRoot('docs', 'architecture.md');
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);
const TEXT = /\.(ts|mjs|cjs|js|json|md|sh|toml|yml|yaml)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (TEXT.test(name) && path !== PAGE) yield path;
  }
}

/** The section numbers of the page's headings: `## 1. Registration service` → 1, `### 1.1b …` → 1.1b, `### R.3 …` → R.3. */
function headings(): Set<string> {
  const numbers = new Set<string>();
  for (const line of readFileSync(PAGE, 'utf8').split('\n')) {
    const match = /^#{2,4} ((?:\d+(?:\.\d+[a-z]?)?)|(?:[MR]\.\d+))\.? /.exec(line);
    if (match) numbers.add(match[1]);
  }
  return numbers;
}

/** `docs/architecture.md §1.2, §1.6` and `docs/architecture.md §R.3`: each section a citation names, with where it is. */
function citations(): { section: string; where: string }[] {
  const found: { section: string; where: string }[] = [];
  const citation = /docs\/architecture\.md((?:(?:,? | and |–)?§ ?(?:[MR]\.\d+|\d+(?:\.\d+[a-z]?)?))+)/g;
  for (const file of files(fromRoot())) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const match of line.matchAll(citation)) {
        for (const section of match[1].matchAll(/§ ?([MR]\.\d+|\d+(?:\.\d+[a-z]?)?)/g)) {
          found.push({ section: section[1], where: `${relative(fromRoot(), file)}:${i + 1}` });
        }
      }
    });
  }
  return found;
}

describe('docs/architecture.md', () => {
  it('has a heading for every section a comment cites (it keeps the numbering of the design it replaced)', () => {
    const numbers = headings();
    const cited = citations();
    expect(cited.length, 'citations found').to.be.greaterThan(0);
    const missing = cited.filter(({ section }) => !numbers.has(section)).map((c) => `§${c.section} at ${c.where}`);
    expect(missing, 'add the section to docs/architecture.md or fix the citation').to.deep.equal([]);
  });

  it('is what comments cite: none points at a design document, research notes or a folder outside the repository', () => {
    // Built from pieces, so this file does not match itself.
    const outside = new RegExp(
      [
        ['DESIGN', '(?:\\.md)? ?§'],
        ['research', ' ?§'],
        ['research', '/[a-z-]+\\.md'],
        ['\\.\\./', 'shared/'],
      ]
        .map((parts) => parts.join(''))
        .join('|'),
    );
    const found: string[] = [];
    for (const file of files(fromRoot())) {
      if (relative(fromRoot(), file).startsWith('docs/')) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (outside.test(line)) found.push(`${relative(fromRoot(), file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(
      found,
      "cite docs/architecture.md §X (it keeps the design's numbering) or the code that holds the rule",
    ).to.deep.equal([]);
  });

  it('keeps every decision section of the design, §0 to §3.5', () => {
    const numbers = headings();
    const expected = [
      ...['0', '0.1', '1', '1.1', '1.1b'],
      ...Array.from({ length: 10 }, (_, i) => `1.${i + 2}`),
      '2',
      ...Array.from({ length: 11 }, (_, i) => `2.${i + 1}`),
      '3',
      ...Array.from({ length: 5 }, (_, i) => `3.${i + 1}`),
    ];
    expect(expected.filter((n) => !numbers.has(n))).to.deep.equal([]);
  });
});
