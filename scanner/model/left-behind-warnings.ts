/**
 * What the scan changed on the target and could not undo, as warning lines for stderr — whatever the report's format
 * or destination, the person running the scan is told at once (the report's `completeness.leftBehind` and
 * `completeness.restoredRecords` hold the details): objects the scan created that it could not delete, and fields of
 * a scan identity's own record (a role raised for a privilege chain, a display name) it could not set back.
 */
import type { ModelOutcome } from './model-outcome.js';

const SHOWN = 3;

export function leftBehindWarnings(model: Pick<ModelOutcome, 'created' | 'ownRestores'>): string[] {
  const lines: string[] = [];
  const left = model.created.filter((object) => object.state === 'left');
  if (left.length > 0) {
    const named = left
      .slice(0, SHOWN)
      .map((o) => `${o.resource} ${o.url ?? JSON.stringify(o.keys)} (${o.reason ?? 'not deleted'})`);
    const more = left.length > SHOWN ? `, and ${left.length - SHOWN} more` : '';
    lines.push(
      `the scan could not delete ${left.length} object${left.length === 1 ? '' : 's'} it created: ${named.join('; ')}${more} — delete ${left.length === 1 ? 'it' : 'them'} by hand (the report's completeness.leftBehind lists every one)`,
    );
  }
  model.ownRestores.forEach((record, index) => {
    if (record.restored) return;
    // A later restore of the same field (the own-record pass after a privilege chain's) may have set it back.
    const later = model.ownRestores.slice(index + 1).filter((r) => r.restored && r.identity === record.identity);
    const fields = record.fields.filter((f) => !later.some((r) => r.fields.includes(f)));
    if (fields.length === 0) return;
    const back = fields.map((f) => (record.was?.[f] !== undefined ? `${f} to ${record.was[f]}` : f)).join(', ');
    lines.push(
      `${record.identity}'s ${fields.join(', ')} could not be set back through ${record.operation} (${record.status ?? 'no answer'}): set ${back} by hand (the report's completeness.restoredRecords)`,
    );
  });
  return lines;
}
