/**
 * Public is not a bypass (docs/architecture.md §2.6): on an operation that answers the same with no credential (the `auth.baseline`
 * fact `answersSameWithout`), no authentication finding (OWASP API2:2023) scores above Info, in every scan kind —
 * applied by the engine after the checks, so no check can forget it. Issues about the operation itself, not its
 * credential (`holdsOnPublicOperations`: a sign-in, public by nature, taking a common password), keep their score.
 */
import type { CheckDefinition } from './api.js';
import { CREDENTIAL_PROBE } from './completeness.js';
import type { CheckResult } from './scan-result.js';

const INFO = {
  version: 4.0 as const,
  vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N',
  score: 0,
};

const isAuthentication = (owasp: string | undefined): boolean => owasp?.startsWith('API2:2023') === true;

/** Operations whose baseline showed the same answer with and without the credential. */
function publicOperations(results: readonly CheckResult[]): Set<string> {
  const ids = new Set<string>();
  for (const result of results) {
    if (result.checkId !== CREDENTIAL_PROBE || result.status !== 'passed') continue;
    const facts = result.data?.facts as { answersSameWithout?: boolean } | undefined;
    if (facts?.answersSameWithout === true) ids.add(result.operationId);
  }
  return ids;
}

/** Caps authentication findings on public operations at Info, saying why in the finding's detail. */
export function capPublicFindings(
  results: readonly CheckResult[],
  definitions: ReadonlyMap<string, CheckDefinition>,
): void {
  const open = publicOperations(results);
  if (open.size === 0) return;
  for (const result of results) {
    if (!open.has(result.operationId)) continue;
    const definition = definitions.get(result.checkId);
    for (const finding of result.findings) {
      const issue = definition?.issues.find((i) => i.id === finding.issueId);
      if (
        !issue ||
        !isAuthentication(issue.classifications?.owasp) ||
        issue.holdsOnPublicOperations ||
        (finding.cvss ?? issue.cvss).score === 0
      )
        continue;
      finding.cvss = { ...INFO };
      const why = 'the operation answers the same without any credential (public): Info, not scored';
      finding.detail = finding.detail ? `${finding.detail}; ${why}` : why;
    }
  }
}
