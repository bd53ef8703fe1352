/**
 * Parses Content-Security-Policy header values by the CSP Level 3 grammar (W3C CSP3 §2.2.1 and §2.3.1): a header is
 * a comma-separated list of policies, a policy a `;`-separated list of directives (names ASCII case-insensitive, a
 * repeated directive ignored), a directive value a whitespace-separated list of source expressions. Source
 * expressions are classified so that invalid ones (a quoted URL such as `'http://example.com'`) can be told apart:
 * they match nothing and restrict nothing.
 */

export type SourceExpression =
  | { kind: 'none' }
  | { kind: 'keyword'; keyword: string }
  | { kind: 'nonce' }
  | { kind: 'hash' }
  | { kind: 'scheme'; scheme: string }
  | { kind: 'host'; scheme?: string; host: string; port?: string; path?: string }
  | { kind: 'invalid'; text: string };

/** One policy: directive name (lower-case) → its value tokens, first occurrence only. */
export type Policy = Map<string, string[]>;

const KEYWORDS = new Set([
  "'self'",
  "'unsafe-inline'",
  "'unsafe-eval'",
  "'strict-dynamic'",
  "'unsafe-hashes'",
  "'report-sample'",
  "'unsafe-allow-redirects'",
  "'wasm-unsafe-eval'",
  "'inline-speculation-rules'",
  "'trusted-types-eval'",
]);
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*';
const BASE64_VALUE = '[A-Za-z0-9+/_-]+={0,2}';
const HOST = '(\\*|(\\*\\.)?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.?)';
// RFC 3986 path-absolute, loosely: "/" followed by path characters (percent-encoded octets included).
const PATH = "(/[A-Za-z0-9\\-._~!$&'()*+,;=:@%/]*)?";
const SCHEME_SOURCE = new RegExp(`^(${SCHEME}):$`);
const HOST_SOURCE = new RegExp(`^(?:(${SCHEME})://)?${HOST}(?::([0-9]+|\\*))?${PATH}$`);
const NONCE_SOURCE = new RegExp(`^'nonce-${BASE64_VALUE}'$`);
const HASH_SOURCE = new RegExp(`^'(sha256|sha384|sha512)-${BASE64_VALUE}'$`, 'i');
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

/** Classifies one token of a directive value (CSP3 §2.3.1 `source-expression`, plus `'none'`). */
export function sourceExpression(token: string): SourceExpression {
  const lower = token.toLowerCase();
  if (lower === "'none'") return { kind: 'none' };
  if (KEYWORDS.has(lower)) return { kind: 'keyword', keyword: lower };
  if (NONCE_SOURCE.test(token)) return { kind: 'nonce' };
  if (HASH_SOURCE.test(token)) return { kind: 'hash' };
  const scheme = SCHEME_SOURCE.exec(token);
  if (scheme) return { kind: 'scheme', scheme: scheme[1].toLowerCase() };
  const host = HOST_SOURCE.exec(token);
  if (host) {
    const [, hostScheme, hostPart, , , port, path] = host;
    return {
      kind: 'host',
      ...(hostScheme ? { scheme: hostScheme.toLowerCase() } : {}),
      host: hostPart.toLowerCase(),
      ...(port ? { port } : {}),
      ...(path ? { path } : {}),
    };
  }
  return { kind: 'invalid', text: token };
}

/** Parses one serialized policy (CSP3 §2.2.1): a directive repeated later in the same policy is ignored. */
function parsePolicy(serialized: string): Policy {
  const policy: Policy = new Map();
  for (const token of serialized.split(';')) {
    const trimmed = token.trim();
    if (trimmed === '') continue;
    const [name = '', ...value] = trimmed.split(ASCII_WHITESPACE);
    const directive = name.toLowerCase();
    if (!/^[a-z0-9-]+$/.test(directive) || policy.has(directive)) continue;
    policy.set(directive, value);
  }
  return policy;
}

/** Every policy a header value carries (several headers arrive joined with ", "): each one is enforced. */
export function parsePolicies(header: string | undefined): Policy[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map(parsePolicy)
    .filter((policy) => policy.size > 0);
}
