/** YAML report format: the same data as JSON (a YAML parser gives back the identical object). */
import { dump } from 'js-yaml';
import type { Report } from '../report/report-types.js';

export function formatYaml(report: Report): string {
  return dump(report, { noRefs: true, lineWidth: -1, sortKeys: false });
}
