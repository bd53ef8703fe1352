/**
 * Conventions as tests (CONVENTIONS 7): every built-in check in checks/ has valid meta, an id equal to its file name,
 * a test file, existing dependencies without cycles, maxCvss and the default scanKinds left implicit — and the
 * VulnAPI vocabulary (issue ids, names, vectors, scores, OWASP/CWE strings) unchanged.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { glob } from 'tinyglobby';
import { toFieldErrors, validatorFor } from '../../lib/json-schema.js';
import type { CheckDefinition } from '../../scanner/api.js';
import { loadChecks } from '../../scanner/loader.js';
import { DOCUMENTED_OWASP_EXTRAS, OWASP_API_TOP_10_2023 } from './support/owasp.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const checksDir = join(root, 'checks');
const files = (await glob(['*.ts'], { cwd: checksDir, absolute: true })).sort();
const checks: { file: string; definition: CheckDefinition }[] = [];
for (const file of files) {
  const mod = (await import(pathToFileURL(file).href)) as { default?: CheckDefinition };
  checks.push({ file, definition: mod.default! });
}
const byId = new Map(checks.map((c) => [c.definition.id, c.definition]));
const loadedById = new Map((await loadChecks()).map((c) => [c.definition.id, c.definition]));

/**
 * VulnAPI v0.9 vocabulary (docs/architecture.md §R.12–§R.13), plus upstream jwtop's for our additions, plus the
 * OWASP API Security Top 10 2023 categories (test/checks/support/owasp.ts) and MITRE CWE names of the checks beyond them (bola.*, bfla.*, resource.*,
 * injection.*, bopla.*, misconfiguration.verbose_errors, ssrf.*, authentication.*).
 */
const OWASP = new Set<string>([...OWASP_API_TOP_10_2023, ...Object.keys(DOCUMENTED_OWASP_EXTRAS)]);
const CWE = new Set([
  'CWE-16: Configuration',
  "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')",
  'CWE-209: Generation of Error Message Containing Sensitive Information',
  'CWE-213: Exposure of Sensitive Information Due to Incompatible Policies',
  'CWE-943: Improper Neutralization of Special Elements in Data Query Logic',
  'CWE-204: Observable Response Discrepancy',
  'CWE-915: Improperly Controlled Modification of Dynamically-Determined Object Attributes',
  'CWE-918: Server-Side Request Forgery (SSRF)',
  'CWE-1333: Inefficient Regular Expression Complexity',
  'CWE-1391: Use of Weak Credentials',
  'CWE-285: Improper Authorization',
  'CWE-287: Improper Authentication',
  'CWE-295: Improper Certificate Validation',
  'CWE-345: Insufficient Verification of Data Authenticity',
  'CWE-346: Origin Validation Error',
  'CWE-347: Improper Verification of Cryptographic Signature',
  'CWE-326: Inadequate Encryption Strength',
  'CWE-489: Active Debug Code',
  'CWE-613: Insufficient Session Expiration',
  'CWE-639: Authorization Bypass Through User-Controlled Key',
  'CWE-770: Allocation of Resources Without Limits or Throttling',
  "CWE-614: Sensitive Cookie in HTTPS Session Without 'Secure' Attribute",
  'CWE-942: Permissive Cross-domain Policy with Untrusted Domains',
  "CWE-1004: Sensitive Cookie Without 'HttpOnly' Flag",
  'CWE-1021: Improper Restriction of Rendered UI Layers or Frames',
  'CWE-1275: Sensitive Cookie with Improper SameSite Attribute',
  "CWE-22: Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')",
  "CWE-78: Improper Neutralization of Special Elements used in an OS Command ('OS Command Injection')",
  "CWE-601: URL Redirection to Untrusted Site ('Open Redirect')",
  'CWE-1336: Improper Neutralization of Special Elements Used in a Template Engine',
]);
const CAPEC = new Set([
  'CAPEC-31: Accessing/Intercepting/Modifying HTTP Cookies',
  'CAPEC-194: Fake the Source of Data',
  'CAPEC-475: Signature Spoofing by Improper Validation',
]);
const P = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N';
const V93 = `${P}/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N`;
const V0N = `${P}/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N`;
const V0A = `${P}/UI:A/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N`;
const V0P = `${P}/UI:P/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N`;
const V51 = `${P}/UI:A/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N`;
// One deliberate difference from VulnAPI: "Operation May Accept…" (its name says "Accepts").
const VULNAPI: Record<
  string,
  { check: string; checkName: string; issues: Record<string, [name: string, vector: string, score: number]> }
> = {
  fingerprint: {
    check: 'discover.server_signature',
    checkName: 'Server Signature Discovery',
    issues: { 'discover.fingerprint': ['Service Fingerprinting', V0N, 0] },
  },
  unauth: {
    check: 'discover.accept_unauthenticated',
    checkName: 'Accept Unauthenticated Operation',
    issues: { 'discover.accept_unauthenticated_operation': ['Operation May Accept Unauthenticated Requests', V0N, 0] },
  },
  bypass: {
    check: 'generic.accept_unauthenticated_operation',
    checkName: 'Accept Unauthenticated Operation',
    issues: {
      'broken_authentication.authentication_bypass': ['Authentication is expected but can be bypassed', V93, 9.3],
    },
  },
  algNone: {
    check: 'jwt.alg_none',
    checkName: 'JWT None Algorithm',
    issues: { 'broken_authentication.alg_none': ['JWT Algorithm None is accepted', V93, 9.3] },
  },
  blank: {
    check: 'jwt.blank_secret',
    checkName: 'JWT Blank Secret',
    issues: { 'broken_authentication.blank_secret': ['JWT Secret used for signing is blank', V93, 9.3] },
  },
  kid: {
    check: 'jwt.kid_injection',
    checkName: 'JWT KID Injection',
    issues: { 'broken_authentication.kid_injection': ['JWT KID Header Injection', V93, 9.3] },
  },
  notVerified: {
    check: 'jwt.not_verified',
    checkName: 'JWT Not Verified',
    issues: { 'broken_authentication.not_verified': ['JWT Token is not verified', V93, 9.3] },
  },
  nullSig: {
    check: 'jwt.null_signature',
    checkName: 'JWT Null Signature',
    issues: { 'broken_authentication.null_signature': ['JWT Token has a null signature', V93, 9.3] },
  },
  weak: {
    check: 'jwt.weak_secret',
    checkName: 'JWT Weak Secret',
    issues: { 'broken_authentication.weak_secret': ['JWT Secret used for signing is weak', V93, 9.3] },
  },
  cookies: {
    check: 'misconfiguration.http_cookies',
    checkName: 'HTTP Cookies Misconfiguration',
    issues: {
      'security_misconfiguration.http_cookies_not_http_only': ['Cookies not HTTP-Only', V0A, 0],
      'security_misconfiguration.http_cookies_not_secure': ['Cookies not Secure', V0P, 0],
      'security_misconfiguration.http_cookies_same_site_none': ['Cookies SameSite set to None', V0P, 0],
      'security_misconfiguration.http_cookies_without_same_site': ['Cookies SameSite not set', V0P, 0],
      'security_misconfiguration.http_cookies_without_expires': ['Cookies Expires not set', V0P, 0],
    },
  },
  headers: {
    check: 'misconfiguration.http_headers',
    checkName: 'HTTP Headers Misconfiguration',
    issues: {
      'security_misconfiguration.http_headers_content_options_missing': [
        'X-Content-Type-Options Header is missing',
        V0A,
        0,
      ],
      'security_misconfiguration.http_headers_cors_missing': ['CORS Headers are missing', V0A, 5.1],
      'security_misconfiguration.http_headers_cors_wildcard': [
        'CORS Allow-Origin Header is set to wildcard (*)',
        V0A,
        0,
      ],
      'security_misconfiguration.http_headers_csp_frame_ancestors_missing': [
        'CSP frame-ancestors policy is not set',
        V51,
        5.1,
      ],
      'security_misconfiguration.http_headers_frame_options_missing': ['X-Frame-Options Header is missing', V51, 5.1],
      'security_misconfiguration.http_headers_csp_missing': ['CSP Header is not set', V0A, 0],
      'security_misconfiguration.http_headers_hsts_missing': ['HSTS Header is missing', V0A, 0],
    },
  },
  override: {
    check: 'misconfiguration.http_method_override',
    checkName: 'HTTP Method Override Misconfiguration',
    issues: {
      'security_misconfiguration.http_method_allow_override': ['Possible HTTP Method Override detected', V0A, 0],
      'security_misconfiguration.http_method_override_authentication_bypass': [
        'Possible HTTP Method Override with authentication bypass detected',
        `${P}/UI:N/VC:H/VI:L/VA:N/SC:N/SI:N/SA:N`,
        8.8,
      ],
    },
  },
  trace: {
    check: 'misconfiguration.http_trace',
    checkName: 'HTTP TRACE Method Misconfiguration',
    issues: { 'security_misconfiguration.http_trace_method_enabled': ['HTTP TRACE Method enabled', V0A, 0] },
  },
  track: {
    check: 'misconfiguration.http_track',
    checkName: 'HTTP TRACK Method Misconfiguration',
    issues: { 'security_misconfiguration.http_track_method_enabled': ['HTTP TRACK Method enabled', V0A, 0] },
  },
  introspection: {
    check: 'graphql.introspection_enabled',
    checkName: 'GraphQL Introspection Enabled',
    // VulnAPI's issue (Info), plus ours for an API that requires a credential (docs/architecture.md §2.9).
    issues: {
      'graphql.introspection_enabled': ['GraphQL Introspection enabled', V0N, 0],
      'graphql.introspection_enabled_private': [
        'GraphQL Introspection enabled on an API that requires a credential',
        'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N',
        5.3,
      ],
    },
  },
  openapi: {
    check: 'discover.discoverable_openapi',
    checkName: 'Discoverable OpenAPI',
    issues: { 'discover.discoverable_openapi': ['Discoverable OpenAPI Path', V0N, 0] },
  },
  graphql: {
    check: 'discover.graphql',
    checkName: 'Discoverable GraphQL Path',
    issues: { 'discover.discoverable_graphql': ['Discoverable GraphQL Endpoint', V0N, 0] },
  },
  exposed: {
    check: 'discover.exposed_files',
    checkName: 'Discoverable exposed files',
    issues: { 'discover.exposed_files': ['Discoverable exposed files', V0N, 0] },
  },
  wellKnown: {
    check: 'discover.well-known',
    checkName: 'Discoverable well-known path',
    issues: { 'discover.discoverable_well_known': ['Discoverable well-known path', V0N, 0] },
  },
  health: {
    check: 'discover.healthcheck',
    checkName: 'Discoverable healthcheck endpoint',
    issues: { 'discover.discoverable_healthcheck': ['Discoverable healthcheck endpoint', V0N, 0] },
  },
};

function cyclePath(start: string): string[] | undefined {
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (stack.includes(id)) return [...stack.slice(stack.indexOf(id)), id];
    stack.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      const found = visit(dep);
      if (found) return found;
    }
    stack.pop();
    return undefined;
  };
  return visit(start);
}

describe('built-in checks (checks/*.ts)', () => {
  it('exist', () => {
    expect(checks.length, 'checks/ holds no check module').to.be.greaterThan(0);
  });

  for (const { file, definition } of checks) {
    const name = basename(file, '.ts');
    describe(name, () => {
      it('default-exports a check made with defineCheck', () => {
        expect(definition, `checks/${name}.ts: add \`export default defineCheck({...})\``).to.be.an('object');
        expect(typeof definition.run, `checks/${name}.ts: add an async run(ctx)`).to.equal('function');
      });

      it('has meta valid against schemas/check-meta.schema.json', () => {
        const validate = validatorFor('https://gatehouse.dev/schemas/check-meta.schema.json');
        const meta = Object.fromEntries(Object.entries(definition).filter(([k]) => k !== 'run' && k !== 'appliesTo'));
        const problems = validate(meta)
          ? []
          : toFieldErrors(validate.errors).map((e) => `${e.path || 'meta'} ${e.message}`);
        expect(problems, `checks/${name}.ts: fix the meta`).to.deep.equal([]);
      });

      it('documents what it sends and its verdict rule in its header comment', () => {
        const header = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
        expect(header, `checks/${name}.ts: start the file with a /** … */ comment`).to.not.equal('');
        expect(header, `checks/${name}.ts: say in the header comment which requests it sends ("Request…")`).to.match(
          /Request|Sends nothing|Requests: none/,
        );
        expect(header, `checks/${name}.ts: add "Verdict: …" to the header comment`).to.include('Verdict');
      });

      it('has an id equal to its file name', () => {
        expect(definition.id, `rename checks/${name}.ts to checks/${definition.id}.ts, or set id: '${name}'`).to.equal(
          name,
        );
      });

      it('has a test file', () => {
        const test = join(root, 'test', 'checks', `${name}.test.ts`);
        expect(existsSync(test), `add test/checks/${name}.test.ts with a vulnerable and a safe target`).to.equal(true);
      });

      it('depends only on checks that exist, without cycles', () => {
        for (const dep of definition.dependsOn ?? []) {
          expect(
            byId.has(dep),
            `checks/${name}.ts depends on "${dep}": add checks/${dep}.ts or remove it from dependsOn`,
          ).to.equal(true);
        }
        const cycle = cyclePath(definition.id);
        expect(cycle, `dependency cycle ${cycle?.join(' -> ')}: remove one dependsOn entry`).to.equal(undefined);
      });

      it('leaves maxCvss to the loader, which derives it from the issues', () => {
        expect(definition.maxCvss, `checks/${name}.ts: remove maxCvss (the loader derives it)`).to.equal(undefined);
        expect(loadedById.get(name)?.maxCvss, `checks/${name}.ts: issue scores within 0..10`).to.be.within(0, 10);
      });

      it('leaves the default scanKinds implicit', () => {
        const kinds = [...(definition.scanKinds ?? [])].sort().join(',');
        expect(kinds, `checks/${name}.ts: remove scanKinds (curl, openapi and graphql is the default)`).to.not.equal(
          'curl,graphql,openapi',
        );
      });

      // The engine hands a check a frozen object that throws on undeclared keys (so helpers' reads fail the check's own
      // tests); this catches the direct reads before any test runs.
      it('declares every option it reads', () => {
        const source = readFileSync(file, 'utf8');
        const read = new Set(
          [...source.matchAll(/ctx\.options\.(\w+)|optionJwt\(ctx, '(\w+)'\)/g)].map((m) => m[1] ?? m[2]),
        );
        const declared = new Set((definition.options ?? []).map((o) => o.name));
        for (const option of read) {
          expect(
            declared.has(option),
            `checks/${name}.ts reads ctx.options.${option}: add its declaration to options (shared ones: checks/support/shared-options.ts)`,
          ).to.equal(true);
        }
      });

      it('uses only the OWASP API 2023, CWE and CAPEC strings of the VulnAPI vocabulary', () => {
        for (const issue of definition.issues) {
          const { owasp, cwe, capec } = issue.classifications ?? {};
          if (capec)
            expect(CAPEC.has(capec), `checks/${name}.ts issue ${issue.id}: unknown CAPEC string "${capec}"`).to.equal(
              true,
            );
          if (owasp)
            expect(OWASP.has(owasp), `checks/${name}.ts issue ${issue.id}: unknown OWASP string "${owasp}"`).to.equal(
              true,
            );
          if (cwe)
            expect(CWE.has(cwe), `checks/${name}.ts issue ${issue.id}: unknown CWE string "${cwe}"`).to.equal(true);
        }
      });
    });
  }
});

describe('VulnAPI compatibility', () => {
  for (const { check, checkName, issues } of Object.values(VULNAPI)) {
    it(`${check} keeps VulnAPI's name, issue ids, names, vectors and scores`, () => {
      const definition = byId.get(check);
      expect(definition, `add checks/${check}.ts (a VulnAPI check)`).to.not.equal(undefined);
      expect(definition!.name, `checks/${check}.ts: name`).to.equal(checkName);
      const actual = Object.fromEntries(definition!.issues.map((i) => [i.id, [i.name, i.cvss.vector, i.cvss.score]]));
      expect(actual, `checks/${check}.ts: issues must match docs/architecture.md §R.12–§R.13`).to.deep.equal(issues);
    });
  }

  it('makes every credential attack depend on auth.baseline, so public endpoints never get JWT or authorization findings', () => {
    for (const definition of byId.values()) {
      const attacks =
        (definition.id.startsWith('jwt.') && definition.id !== 'jwt.weak_secret') ||
        /^(bola|bfla)\./.test(definition.id);
      if (attacks || definition.id === 'generic.accept_unauthenticated_operation') {
        expect(definition.dependsOn ?? [], `checks/${definition.id}.ts: add dependsOn: ['auth.baseline']`).to.include(
          'auth.baseline',
        );
      }
    }
  });
});
