/**
 * Prepares the running service's own OpenAPI document for a self-scan: every path parameter gets a real value
 * as its `example` (the demo organization, a registration made for the scan, platform profile/template ids), so
 * the scanner attacks existing objects instead of 404s. The scanner fills parameters from examples first.
 */

type Parameter = { name?: string; in?: string; example?: unknown };
type PathItem = Record<string, unknown> & { parameters?: Parameter[] };

export interface SelfScanIds {
  organizationId: string;
  registrationId: string;
  changeSetId?: string;
}

function valueFor(path: string, name: string, ids: SelfScanIds): string | undefined {
  if (name === 'organizationId') return ids.organizationId;
  if (name === 'changeSetId') return ids.changeSetId;
  if (name !== 'id') return undefined;
  if (path.includes('/policy-profiles/')) return 'pp_standard';
  if (path.includes('/templates/')) return 'tpl_web';
  return ids.registrationId;
}

export function withRealPathValues<T extends { paths?: Record<string, PathItem> }>(document: T, ids: SelfScanIds): T {
  const copy = structuredClone(document);
  for (const [path, item] of Object.entries(copy.paths ?? {})) {
    const lists = [
      item.parameters,
      ...Object.values(item).map((op) => (op as { parameters?: Parameter[] } | null)?.parameters),
    ];
    for (const list of lists) {
      for (const parameter of Array.isArray(list) ? list : []) {
        if (parameter.in !== 'path' || !parameter.name) continue;
        const value = valueFor(path, parameter.name, ids);
        if (value !== undefined) parameter.example = value;
      }
    }
  }
  return copy;
}
