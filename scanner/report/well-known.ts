/** The OpenAPI and GraphQL URLs the discover checks found, for the well-known paths table (`N/A` when not found). */
import type { CheckResult } from '../scan-result.js';

export interface WellKnownPaths {
  openapi?: string;
  graphql?: string;
}

const SOURCES: { key: keyof WellKnownPaths; checkId: string }[] = [
  { key: 'openapi', checkId: 'discover.discoverable_openapi' },
  { key: 'graphql', checkId: 'discover.graphql' },
];

function foundUrl(result: CheckResult): string | undefined {
  if (result.status !== 'failed') return undefined;
  for (const finding of result.findings) {
    const cited = finding.attemptId ? result.attempts.find((a) => a.id === finding.attemptId) : undefined;
    if (cited) return cited.request.url;
    const inDetail = finding.detail?.match(/https?:\/\/\S+/)?.[0];
    if (inDetail) return inDetail;
  }
  return result.attempts.find((a) => a.response?.status === 200)?.request.url;
}

/** Undefined when no discover check ran (then the table is not printed). */
export function wellKnownPaths(results: CheckResult[]): WellKnownPaths | undefined {
  let ran = false;
  const paths: WellKnownPaths = {};
  for (const { key, checkId } of SOURCES) {
    const result = results.find((r) => r.checkId === checkId);
    if (!result) continue;
    ran = true;
    const url = foundUrl(result);
    if (url) paths[key] = url;
  }
  return ran ? paths : undefined;
}
