/** JSON report format: the validated report, pretty-printed, with a trailing newline. */
import type { Report } from '../report/report-types.js';

export function formatJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
