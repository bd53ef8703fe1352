/**
 * Builds the 2024-10 JSON report from a scan outcome: one item per (check, operation) in execution order, every
 * attempt as a scan report, every issue with a status inside the schema's enum (failed ones with their fingerprint,
 * suppression and reproducing curl command: failed-issue-extensions.ts), and the curl section (failed issues).
 */
import type { CheckDefinition, Credential, IssueMeta, Operation } from '../api.js';
import type { Attempt, CheckResult, ScanOutcome, SuppressionNote } from '../scan-result.js';
import { incompleteness } from '../completeness.js';
import type { ModelOutcome } from '../model/model-outcome.js';
import { operationClass } from '../operation-class.js';
import { citedAttemptIds, failedIssueExtensions } from './failed-issue-extensions.js';
import { parseSetCookie } from './parse-set-cookie.js';
import {
  REPORT_SCHEMA_ID,
  type CheckReport,
  type CurlReport,
  type IssueReport,
  type Report,
  type ScanAttemptReport,
  type SecuritySchemeReport,
} from './report-types.js';

function attemptReport(attempt: Attempt): ScanAttemptReport {
  const { request, response } = attempt;
  const report: ScanAttemptReport = {
    id: attempt.id,
    request: {
      id: attempt.id,
      method: request.method,
      url: request.url,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
  };
  if (response) {
    const headers = { ...response.headers };
    delete headers['set-cookie'];
    report.response = {
      statusCode: response.status,
      body: response.body,
      headers,
      ...(response.setCookies.length > 0 ? { cookies: response.setCookies.map(parseSetCookie) } : {}),
      ...(response.truncated ? { truncated: response.truncated } : {}),
    };
  }
  if (attempt.error !== undefined) report.error = { message: attempt.error || 'request failed' };
  return report;
}

function issueReport(
  issue: IssueMeta,
  result: CheckResult,
  suppressions?: ReadonlyMap<string, SuppressionNote>,
): IssueReport {
  const findings = result.findings.filter((f) => f.issueId === issue.id);
  const status: IssueReport['status'] =
    result.status === 'skipped' || result.status === 'errored' ? 'skipped' : findings.length > 0 ? 'failed' : 'passed';
  const cited = citedAttemptIds(findings);
  const failedAttempts = new Set(cited);
  // Without a cited attempt, a failed issue rests on everything the check sent.
  const allFailed = status === 'failed' && failedAttempts.size === 0;
  const details = findings.map((f) => f.detail).filter((d): d is string => d !== undefined);
  // A finding scored lower than its issue (what the operation is, or a public operation) reports that score.
  const own = findings.map((f) => f.cvss).filter((c) => c !== undefined);
  const scored =
    own.length === findings.length && own.length > 0 ? own.reduce((a, b) => (b.score > a.score ? b : a)) : issue.cvss;
  const cvss = { version: scored.version, vector: scored.vector, score: scored.score };
  // Linked only when every finding of the issue follows from a cause found on this operation (scanner/root-causes.ts).
  const cause = findings.length > 0 && findings.every((f) => f.linked) ? findings[0].cause : undefined;
  const steps = findings.flatMap((f) => (f.steps ?? []).map((s) => ({ scan: s.attemptId, role: s.role })));
  const ci = status === 'failed' ? failedIssueExtensions(issue.id, result, cited, suppressions) : undefined;
  const oracle = findings.find((f) => f.oracle)?.oracle;
  const chain = findings.find((f) => f.chain)?.chain;
  const evidence: NonNullable<IssueReport['evidence']> = {
    ...(ci?.curl ? { curl: ci.curl } : {}),
    ...(steps.length > 0 ? { steps } : {}),
    ...(oracle ? { oracle: { kind: oracle.kind, operation: oracle.operation, scans: oracle.attemptIds } } : {}),
    ...(chain
      ? {
          chain: chain.map((s) => ({
            step: s.step,
            role: s.role,
            operation: s.operation,
            detail: s.detail,
            ...(s.attemptIds ? { scans: s.attemptIds } : {}),
          })),
        }
      : {}),
    ...(cause ? { cause: { check: cause.checkId, issue: cause.issueId }, originalCvss: cvss } : {}),
  };
  return {
    id: issue.id,
    name: issue.name,
    ...(issue.url ? { url: issue.url } : {}),
    cvss: cause ? { version: issue.cvss.version, score: 0 } : cvss,
    ...(issue.classifications ? { classifications: { ...issue.classifications } } : {}),
    status,
    ...(ci ? { fingerprint: ci.fingerprint } : {}),
    ...(ci?.suppressed ? { suppressed: ci.suppressed } : {}),
    ...(details.length > 0 ? { details } : {}),
    ...(Object.keys(evidence).length > 0 ? { evidence } : {}),
    scans: result.attempts
      .filter((a) => a.response !== undefined)
      .map((a) => ({
        id: a.id,
        status: allFailed || failedAttempts.has(a.id) ? ('failed' as const) : ('passed' as const),
      })),
  };
}

function checkReport(
  result: CheckResult,
  definition: CheckDefinition,
  operation: Operation | undefined,
  suppressions?: ReadonlyMap<string, SuppressionNote>,
): CheckReport {
  return {
    id: definition.id,
    name: definition.name,
    startTime: result.startTime.toISOString(),
    endTime: result.endTime.toISOString(),
    ...(operation ? { operation: { id: operation.id, method: operation.method, url: operation.url } } : {}),
    status: result.status,
    ...(result.reason ? { reason: result.reason } : {}),
    ...(result.incomplete ? { incomplete: true } : {}),
    ...(result.coveredBy ? { coveredBy: result.coveredBy } : {}),
    ...(result.data ? { data: result.data } : {}),
    scans: result.attempts.map(attemptReport),
    issues: definition.issues.map((issue) => issueReport(issue, result, suppressions)),
  };
}

function securitySchemeReport(credential: Credential | undefined): SecuritySchemeReport {
  if (!credential) return { type: 'none', scheme: 'None', tokenFormat: 'none', name: 'no_auth' };
  const scheme: SecuritySchemeReport['scheme'] =
    credential.scheme === 'basic'
      ? 'Basic'
      : credential.scheme === 'bearer' || credential.type === 'oauth2' || credential.type === 'openIdConnect'
        ? 'Bearer'
        : 'None';
  return {
    type: credential.type,
    scheme,
    // The report's locations are OpenAPI's (query, header, cookie): a body credential (a token argument) has none.
    ...(credential.in !== 'body' ? { in: credential.in } : {}),
    tokenFormat: credential.format === 'jwt' ? 'jwt' : 'none',
    name: credential.schemeName,
  };
}

function curlReport(operation: Operation, items: CheckReport[]): CurlReport {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(operation.headers)) headers[name] = values.join(', ');
  const failed = new Map<string, IssueReport>();
  for (const item of items) {
    if (item.operation?.id !== operation.id) continue;
    for (const issue of item.issues)
      if (issue.status === 'failed' && !failed.has(issue.id)) failed.set(issue.id, issue);
  }
  return {
    method: operation.method,
    url: operation.url,
    ...(operation.body !== undefined ? { data: { raw: operation.body } } : {}),
    headers,
    cookies: Object.entries(operation.cookies).map(([name, value]) => ({ name, value })),
    securitySchemes: [securitySchemeReport(operation.credential)],
    issues: [...failed.values()],
  };
}

/** The openapi section: path template → upper-case method → operationId, tags, security schemes, failed issues. */
function openapiReport(operations: Operation[], items: CheckReport[]): NonNullable<Report['openapi']> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    // GraphQL fields share their endpoint's method and path: the graphql section lists them.
    if (operation.graphql?.field) continue;
    const failed = new Map<string, IssueReport>();
    for (const item of items) {
      if (item.operation?.id !== operation.id) continue;
      for (const issue of item.issues)
        if (issue.status === 'failed' && !failed.has(issue.id)) failed.set(issue.id, issue);
    }
    paths[operation.path] ??= {};
    paths[operation.path][operation.method] = {
      operationId: operation.operationId ?? operation.id,
      ...(operation.tags ? { tags: operation.tags } : {}),
      securitySchemes: [securitySchemeReport(operation.credential)],
      issues: [...failed.values()],
    };
  }
  return { paths };
}

/** The graphql section: the endpoint, the schema's source, and per root field its class and failed issues. */
function graphqlReport(operations: Operation[], items: CheckReport[]): NonNullable<Report['graphql']> {
  const endpoint = operations.find((o) => o.graphql) ?? operations[0];
  const section: NonNullable<Report['graphql']> = {
    url: endpoint.graphql?.endpoint ?? endpoint.url,
    ...(endpoint.graphql ? { schemaSource: endpoint.graphql.schemaSource } : {}),
    queries: {},
    mutations: {},
  };
  for (const operation of operations) {
    const field = operation.graphql?.field;
    if (!field) continue;
    const failed = new Map<string, IssueReport>();
    for (const item of items) {
      if (item.operation?.id !== operation.id) continue;
      for (const issue of item.issues)
        if (issue.status === 'failed' && !failed.has(issue.id)) failed.set(issue.id, issue);
    }
    section[operation.graphql!.kind === 'mutation' ? 'mutations' : 'queries'][field] = {
      operationId: operation.operationId ?? operation.id,
      class: operationClass(operation),
      securitySchemes: [securitySchemeReport(operation.credential)],
      issues: [...failed.values()],
    };
  }
  return section;
}

export function buildReport(
  outcome: ScanOutcome,
  options: Record<string, unknown>,
  description: { convertedFrom?: string } = {},
): Report {
  const definitions = new Map(outcome.checks.map((c) => [c.definition.id, c.definition]));
  const operations = new Map(
    [...(outcome.oncePerScanOperation ? [outcome.oncePerScanOperation] : []), ...outcome.operations].map((o) => [
      o.id,
      o,
    ]),
  );
  const reports = outcome.results.map((r) =>
    checkReport(r, definitions.get(r.checkId)!, operations.get(r.operationId), outcome.suppressions),
  );
  const summary = incompleteness(outcome);
  const completeness: Report['completeness'] = {
    complete: summary.complete,
    incompleteChecks: summary.count,
    reasons: summary.reasons,
    ...(outcome.requestsRefused ? { destructiveRequestsRefused: outcome.requestsRefused } : {}),
    ...(outcome.model ? modelCompleteness(outcome.model) : {}),
    ...(outcome.canary
      ? {
          identityCanary: {
            operation: outcome.canary.operationId,
            every: outcome.canary.every,
            checks: outcome.canary.checks,
            ...(outcome.canary.startStatus !== undefined ? { startStatus: outcome.canary.startStatus } : {}),
            ...(outcome.canary.endStatus !== undefined ? { endStatus: outcome.canary.endStatus } : {}),
            ...(outcome.canary.lost
              ? {
                  lost: {
                    afterRequests: outcome.canary.lost.afterRequests,
                    at: outcome.canary.lost.at.toISOString(),
                    status: outcome.canary.lost.status,
                    reason: outcome.canary.lost.reason,
                  },
                }
              : {}),
          },
        }
      : {}),
  };
  const report: Report = { $schema: REPORT_SCHEMA_ID, options, completeness, reports };
  if (outcome.kind === 'curl' && outcome.operations[0]) report.curl = curlReport(outcome.operations[0], reports);
  if (outcome.kind === 'openapi')
    report.openapi = {
      ...(description.convertedFrom ? { convertedFrom: description.convertedFrom } : {}),
      ...openapiReport(outcome.operations, reports),
    };
  // An OpenAPI description's GraphQL endpoint was scanned field by field (scanner/graphql/openapi-endpoints.ts).
  if (outcome.kind === 'openapi' && outcome.operations.some((o) => o.graphql?.field))
    report.graphql = graphqlReport(outcome.operations, reports);
  if (outcome.kind === 'graphql' && outcome.operations[0]) report.graphql = graphqlReport(outcome.operations, reports);
  return report;
}

/** The API model's account in the report: identities, objects created and left behind, server errors. */
function modelCompleteness(model: ModelOutcome): Partial<NonNullable<Report['completeness']>> {
  const left = model.created.filter((o) => o.state === 'left');
  return {
    identities: model.identities.map((identity) => ({
      name: identity.name,
      role: identity.role,
      knownBy: identity.knownBy,
      ...(identity.credential ? { credential: identity.credential } : {}),
      renewals: identity.renewals.map((r) => ({ at: r.at.toISOString(), reason: r.reason, ok: r.ok })),
    })),
    ...(model.created.length > 0
      ? {
          createdObjects: {
            created: model.created.length,
            deleted: model.created.filter((o) => o.state === 'deleted').length,
            leftBehind: left.length,
          },
        }
      : {}),
    ...(left.length > 0
      ? {
          leftBehind: left.map((o) => ({
            resource: o.resource,
            operation: o.operation,
            creator: o.creator,
            ...(o.check ? { check: o.check } : {}),
            keys: o.keys,
            ...(o.url ? { url: o.url } : {}),
            reason: o.reason ?? 'not deleted',
          })),
        }
      : {}),
    ...(model.ownRestores.length > 0
      ? {
          restoredRecords: model.ownRestores.map(({ identity, operation, fields, status, restored }) => ({
            identity,
            operation,
            fields: [...fields],
            ...(status !== undefined ? { status } : {}),
            restored,
          })),
        }
      : {}),
    ...(model.serverErrors.length > 0 ? { serverErrors: model.serverErrors } : {}),
  };
}
