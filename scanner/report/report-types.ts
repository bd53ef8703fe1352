/** TypeScript shape of the JSON report; `schemas/report/2024-10/*.schema.json` is the contract and every report is validated against it. */

export const REPORT_SCHEMA_ID = 'https://gatehouse.dev/schemas/report/2024-10/report.schema.json';

type Headers = Record<string, string>;

export interface CookieReport {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  expires?: string;
  maxAge?: number;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: string;
}

export interface ScanAttemptReport {
  id: string;
  request?: { id: string; method: string; url: string; body?: string; cookies?: CookieReport[]; headers?: Headers };
  response?: { statusCode: number; body?: string; cookies?: CookieReport[]; headers?: Headers; truncated?: string };
  error?: { message: string };
}

export interface IssueReport {
  id: string;
  name: string;
  url?: string;
  cvss: { version: number; vector?: string; score: number };
  classifications?: { owasp?: string; cwe?: string; capec?: string };
  status: 'skipped' | 'passed' | 'failed';
  details?: string[];
  /** Gatehouse extension, failed issues: the stable hash a suppression names (report/issue-fingerprint.ts). */
  fingerprint?: string;
  /** Gatehouse extension: a failed issue accepted by a suppression; it does not count for the threshold. */
  suppressed?: { reason: string; expires?: string };
  /**
   * Gatehouse extension: a command that sends the proving request again (credentials as `$TOKEN`), the steps of a
   * multi-request proof, and the root cause of a linked (unscored) issue.
   */
  evidence?: {
    curl?: string;
    steps?: { scan: string; role: string }[];
    oracle?: { kind: string; operation: string; scans: string[] };
    chain?: { step: number; role: 'raised' | 'reached'; operation: string; detail: string; scans?: string[] }[];
    cause?: { check: string; issue: string };
    originalCvss?: { version: number; vector?: string; score: number };
  };
  scans?: { id: string; status: 'passed' | 'failed' }[];
}

export interface SecuritySchemeReport {
  type: 'http' | 'oauth2' | 'openIdConnect' | 'apiKey' | 'mutualTLS' | 'none';
  scheme: 'Basic' | 'Bearer' | 'Digest' | 'OAuth' | 'PrivateToken' | 'None';
  in?: 'query' | 'header' | 'cookie';
  tokenFormat?: 'jwt' | 'none';
  name: string;
}

export interface CheckReport {
  id: string;
  name: string;
  startTime: string;
  endTime?: string;
  operation?: { id: string; method?: string; url?: string };
  status?: 'passed' | 'failed' | 'skipped' | 'errored';
  reason?: string;
  /** Could not run for a reason that leaves the scan incomplete. */
  incomplete?: boolean;
  /** Passed as covered by this operation's run of the same check (a shared verdict): nothing was sent here. */
  coveredBy?: string;
  data?: Record<string, unknown>;
  scans: ScanAttemptReport[];
  issues: IssueReport[];
}

export interface CurlReport {
  method: string;
  url: string;
  data?: { raw: string };
  headers?: Headers;
  cookies?: CookieReport[];
  securitySchemes: SecuritySchemeReport[];
  issues: IssueReport[];
}

/** Gatehouse addition (docs/architecture.md §2.6): whether every selected check could run, and the identity canary's record. */
interface CompletenessReport {
  complete: boolean;
  incompleteChecks: number;
  reasons: string[];
  destructiveRequestsRefused?: number;
  identities?: {
    name: string;
    role: string;
    knownBy: Record<string, string>;
    credential?: string;
    renewals: { at: string; reason: string; ok: boolean }[];
  }[];
  createdObjects?: { created: number; deleted: number; leftBehind: number };
  leftBehind?: {
    resource: string;
    operation: string;
    creator: string;
    check?: string;
    keys: Record<string, string>;
    url?: string;
    reason: string;
  }[];
  /** Fields of a scan identity's own record the checks changed and the scan set back after them. */
  restoredRecords?: { identity: string; operation: string; fields: string[]; status?: number; restored: boolean }[];
  serverErrors?: {
    operation: string;
    count: number;
    requests: {
      check: string;
      scan: string;
      status?: number;
      error?: string;
      inputs: { input: string; value?: string }[];
    }[];
  }[];
  identityCanary?: {
    operation: string;
    every: number;
    checks: number;
    startStatus?: number;
    endStatus?: number;
    lost?: { afterRequests: number; at: string; status: number; reason: string };
  };
}

/** One root field of a GraphQL scan in the report's graphql section. */
interface GraphqlFieldReport {
  operationId: string;
  /** `read`, `write` or `destructive` (scanner/operation-class.ts). */
  class: string;
  securitySchemes: SecuritySchemeReport[];
  issues: IssueReport[];
}

export interface Report {
  $schema?: string;
  options: Record<string, unknown>;
  completeness?: CompletenessReport;
  curl?: CurlReport;
  openapi?: { convertedFrom?: string; paths: Record<string, Record<string, unknown>> };
  graphql?: {
    url: string;
    /** How the schema was obtained: `introspection`, `introspection bypass: <way>`, `validation errors and suggestions (partial)`, `file`, `none`. */
    schemaSource?: string;
    queries: Record<string, GraphqlFieldReport>;
    mutations: Record<string, GraphqlFieldReport>;
  };
  reports: CheckReport[];
}
