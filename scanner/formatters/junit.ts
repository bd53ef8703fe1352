/**
 * JUnit XML for CI test tabs (issue #28 item 6): a test suite per check, a test case per check × operation. A found
 * issue is a failure whose message names it and whose text is its evidence summary (score, details, fingerprint, the
 * curl command that sends the proof again); a skipped check is skipped with its reason, an errored one an error. A
 * case whose every failed issue is suppressed is skipped, saying so: it is listed, but it does not fail the build.
 */
import type { CheckResult, ScanOutcome } from '../scan-result.js';
import { failedIssuesOf, operationLabel, type FailedIssue } from '../report/failed-issues.js';
import { VERSION } from '../version.js';

/** Text and attribute values: XML's five escapes, and no character XML 1.0 forbids (control bytes of a body). */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!);
}

const seconds = (result: CheckResult): string =>
  ((result.endTime.getTime() - result.startTime.getTime()) / 1000).toFixed(3);

function summary(failed: FailedIssue): string {
  const { issue } = failed;
  const classes = [issue.classifications?.owasp, issue.classifications?.cwe].filter(Boolean).join(', ');
  return [
    `${issue.name} (${issue.id}): CVSS 4.0 ${failed.score.toFixed(1)}, ${failed.risk}${classes ? `; ${classes}` : ''}`,
    ...(failed.linkedTo ? [`follows from ${failed.linkedTo}, not scored again`] : []),
    ...failed.details.map((d) => `  ${d}`),
    `  fingerprint: ${failed.fingerprint}`,
    ...(failed.curl ? [`  reproduce: ${failed.curl}`] : []),
    ...(failed.suppressed
      ? [
          `  suppressed: ${failed.suppressed.reason}${failed.suppressed.expires ? ` (until ${failed.suppressed.expires})` : ''}`,
        ]
      : []),
  ].join('\n');
}

interface Case {
  xml: string;
  failed: boolean;
  errored: boolean;
  skipped: boolean;
}

function testCase(outcome: ScanOutcome, result: CheckResult): Case {
  const head = `<testcase classname="${xml(result.checkId)}" name="${xml(operationLabel(outcome, result))}" time="${seconds(result)}"`;
  const issues = failedIssuesOf(outcome, result);
  const counted = issues.filter((i) => !i.suppressed);
  if (counted.length > 0) {
    const message = counted.map((i) => `${i.issue.name} (CVSS 4.0 ${i.score.toFixed(1)})`).join('; ');
    const body = issues.map(summary).join('\n\n');
    const failure = `<failure message="${xml(message)}" type="${xml(counted[0].issue.id)}">${xml(body)}</failure>`;
    return { xml: `${head}>${failure}</testcase>`, failed: true, errored: false, skipped: false };
  }
  if (issues.length > 0) {
    const message = `suppressed: ${issues.map((i) => i.suppressed!.reason).join('; ')}`;
    const out = `<system-out>${xml(issues.map(summary).join('\n\n'))}</system-out>`;
    return {
      xml: `${head}><skipped message="${xml(message)}"/>${out}</testcase>`,
      failed: false,
      errored: false,
      skipped: true,
    };
  }
  if (result.status === 'skipped')
    return {
      xml: `${head}><skipped message="${xml(result.reason ?? 'skipped')}"/></testcase>`,
      failed: false,
      errored: false,
      skipped: true,
    };
  if (result.status === 'errored')
    return {
      xml: `${head}><error message="${xml(result.reason ?? 'error')}" type="errored"/></testcase>`,
      failed: false,
      errored: true,
      skipped: false,
    };
  const covered = result.coveredBy
    ? `<system-out>${xml(result.reason ?? `covered by ${result.coveredBy}`)}</system-out>`
    : '';
  return {
    xml: covered ? `${head}>${covered}</testcase>` : `${head}/>`,
    failed: false,
    errored: false,
    skipped: false,
  };
}

const counts = (cases: Case[]) =>
  `tests="${cases.length}" failures="${cases.filter((c) => c.failed).length}" errors="${cases.filter((c) => c.errored).length}" skipped="${cases.filter((c) => c.skipped).length}"`;

export function formatJunit(outcome: ScanOutcome): string {
  const byCheck = new Map<string, CheckResult[]>();
  for (const result of outcome.results) byCheck.set(result.checkId, [...(byCheck.get(result.checkId) ?? []), result]);
  const suites: string[] = [];
  const all: Case[] = [];
  for (const [checkId, results] of byCheck) {
    const name = outcome.checks.find((c) => c.definition.id === checkId)?.definition.name ?? checkId;
    const cases = results.map((r) => testCase(outcome, r));
    all.push(...cases);
    const time = results.reduce((sum, r) => sum + Number(seconds(r)), 0).toFixed(3);
    suites.push(
      `  <testsuite name="${xml(`${checkId}: ${name}`)}" ${counts(cases)} time="${time}" timestamp="${results[0].startTime.toISOString()}">\n${cases
        .map((c) => `    ${c.xml}`)
        .join('\n')}\n  </testsuite>`,
    );
  }
  const time = ((outcome.endTime.getTime() - outcome.startTime.getTime()) / 1000).toFixed(3);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(`gatehouse-scanner ${VERSION}`)}" ${counts(all)} time="${time}">\n${suites.join('\n')}\n</testsuites>\n`;
}
