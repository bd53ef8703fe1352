/**
 * Reads the CSP `frame-ancestors` directive (CSP Level 3 §6.4.2), which obsoletes X-Frame-Options, parsed by the CSP3
 * grammar (checks/support/csp-policy.ts). Every policy in force applies, so one restrictive policy is enough.
 * Invalid source expressions restrict nothing: a directive whose only sources are invalid (a quoted URL like
 * `'http://example.com'`) does not set the policy it was written for.
 */
import { parsePolicies, sourceExpression, type SourceExpression } from './csp-policy.js';

export type Framing =
  { verdict: 'restricted'; detail: string } | { verdict: 'absent' | 'unrestricted' | 'invalid'; detail: string };

/** Ancestor schemes a site can be served from: a bare scheme of these lets every such site frame the page. */
const WEB_SCHEMES = new Set(['http', 'https']);

/** Whether an ancestor-source (CSP3 §6.4.2: scheme-source, host-source or 'self') lets any web site frame the page. */
function allowsAnySite(source: SourceExpression): boolean {
  if (source.kind === 'scheme') return WEB_SCHEMES.has(source.scheme);
  return source.kind === 'host' && source.host === '*';
}

const isAncestorSource = (s: SourceExpression): boolean =>
  s.kind === 'scheme' || s.kind === 'host' || (s.kind === 'keyword' && s.keyword === "'self'");

function judge(tokens: string[]): Framing {
  const text = `frame-ancestors ${tokens.join(' ')}`.trim();
  const sources = tokens.map(sourceExpression);
  if (sources.length === 1 && sources[0].kind === 'none') return { verdict: 'restricted', detail: text };
  // 'none' only counts alone (CSP3 §2.3.1); keywords, nonces and hashes are not ancestor sources.
  const valid = sources.filter(isAncestorSource);
  const invalid = tokens.filter((_, i) => !isAncestorSource(sources[i]) && sources[i].kind !== 'none');
  if (valid.some(allowsAnySite)) return { verdict: 'unrestricted', detail: `${text} lets any site frame the page` };
  if (valid.length === 0) {
    if (tokens.length === 0) return { verdict: 'restricted', detail: `${text} (an empty list, as 'none')` };
    return {
      verdict: 'invalid',
      detail: `${text} has no valid source expression (${invalid.join(', ')}: not a CSP3 ancestor source — a quoted URL is neither a keyword nor a host): it does not set the framing policy it names`,
    };
  }
  return {
    verdict: 'restricted',
    detail: invalid.length > 0 ? `${text} (invalid, ignored: ${invalid.join(', ')})` : text,
  };
}

/** How a CSP header value restricts framing: restricted when any enforced policy's frame-ancestors does. */
export function framing(csp: string | undefined): Framing {
  const verdicts = parsePolicies(csp)
    .map((policy) => policy.get('frame-ancestors'))
    .filter((tokens): tokens is string[] => tokens !== undefined)
    .map(judge);
  const restricted = verdicts.find((v) => v.verdict === 'restricted');
  if (restricted) return restricted;
  return (
    verdicts.find((v) => v.verdict === 'invalid') ??
    verdicts[0] ?? { verdict: 'absent', detail: 'no CSP frame-ancestors directive' }
  );
}
