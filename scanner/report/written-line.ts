/** The one line a scan ends with when its report went to a file: where, in which format, and what it holds. */
import type { ScanOutcome } from '../scan-result.js';
import { countedRows, findingRows } from './findings.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function reportWrittenLine(path: string, format: string, outcome: ScanOutcome, threshold: number): string {
  const all = findingRows(outcome);
  const rows = countedRows(all);
  const suppressed = all.length - rows.length;
  const above = rows.filter((r) => r.score > threshold).length;
  const counts = [
    plural(outcome.operations.length, 'operation'),
    plural(outcome.checks.length, 'check'),
    plural(outcome.requestsSent, 'request'),
    `${plural(rows.length, 'finding')} (${above} above ${threshold.toFixed(1)})${suppressed > 0 ? `, ${suppressed} suppressed` : ''}`,
  ];
  return `scanner: report written to ${path} (${format}): ${counts.join(', ')}`;
}
