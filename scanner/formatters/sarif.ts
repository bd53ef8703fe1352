/**
 * SARIF 2.1.0 format for code-scanning dashboards: one rule per issue id (with `security-severity` = the CVSS
 * score, as GitHub code scanning reads it), one result per finding, located at the operation's URL, with the issue's
 * fingerprint as its partial fingerprint and, when suppressed, an accepted external suppression with the reason.
 */
import type { CheckDefinition } from '../api.js';
import { findingScore } from '../root-causes.js';
import { resultFingerprint } from '../report/issue-fingerprint.js';
import { VERSION } from '../version.js';
import type { ScanOutcome } from '../scan-result.js';

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  helpUri?: string;
  properties: { 'security-severity': string; tags: string[] };
}

function level(score: number): 'error' | 'warning' | 'note' {
  return score >= 7 ? 'error' : score >= 4 ? 'warning' : 'note';
}

export function formatSarif(outcome: ScanOutcome): string {
  const definitions = new Map<string, CheckDefinition>(outcome.checks.map((c) => [c.definition.id, c.definition]));
  const operations = new Map(outcome.operations.map((o) => [o.id, o]));
  const rules = new Map<string, SarifRule>();
  const results: unknown[] = [];
  for (const result of outcome.results) {
    if (result.status !== 'failed') continue;
    const definition = definitions.get(result.checkId)!;
    const operation = operations.get(result.operationId);
    for (const finding of result.findings) {
      const issue = definition.issues.find((i) => i.id === finding.issueId)!;
      if (!rules.has(issue.id)) {
        rules.set(issue.id, {
          id: issue.id,
          name: issue.name,
          shortDescription: { text: issue.name },
          ...(issue.url ? { helpUri: issue.url } : {}),
          properties: {
            'security-severity': issue.cvss.score.toFixed(1),
            tags: [
              'security',
              ...[issue.classifications?.owasp, issue.classifications?.cwe].filter((t): t is string => Boolean(t)),
            ],
          },
        });
      }
      const score = findingScore(finding, issue);
      const fingerprint = resultFingerprint(result, issue.id);
      const suppressed = outcome.suppressions?.get(fingerprint);
      const linked = finding.linked && finding.cause ? `; follows from ${finding.cause.checkId}, not scored again` : '';
      results.push({
        ruleId: issue.id,
        level: level(score),
        message: {
          text: `${issue.name} (${result.checkId}, CVSS 4.0 ${score.toFixed(1)}${linked}) on ${result.operationId}${finding.detail ? `: ${finding.detail}` : ''}`,
        },
        locations: [{ physicalLocation: { artifactLocation: { uri: operation?.url ?? result.operationId } } }],
        // Code scanning tells one alert from another by this, across runs (report/issue-fingerprint.ts).
        partialFingerprints: { 'gatehouseIssue/v1': fingerprint },
        ...(suppressed
          ? {
              suppressions: [
                {
                  kind: 'external',
                  status: 'accepted',
                  justification: `${suppressed.reason}${suppressed.expires ? ` (until ${suppressed.expires})` : ''}`,
                },
              ],
            }
          : {}),
        properties: {
          check: result.checkId,
          operation: result.operationId,
          cvssVector: (finding.cvss ?? issue.cvss).vector,
          ...(finding.linked && finding.cause ? { cause: finding.cause.checkId } : {}),
        },
      });
    }
  }
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'gatehouse-scanner', version: VERSION, rules: [...rules.values()] } },
        invocations: [
          {
            executionSuccessful: true,
            startTimeUtc: outcome.startTime.toISOString(),
            endTimeUtc: outcome.endTime.toISOString(),
          },
        ],
        results,
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
