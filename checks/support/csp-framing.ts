/** Reads the CSP `frame-ancestors` directive (CSP Level 3 §6.4.2), which obsoletes X-Frame-Options. */

/** True when a CSP sets `frame-ancestors` to sources narrower than "any site" (CSP Level 3 §6.4.2). */
export function framingRestricted(csp: string | undefined): boolean {
  for (const directive of (csp ?? '').split(/[;,]/)) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name?.toLowerCase() !== 'frame-ancestors') continue;
    return sources.length > 0 && !sources.some((s) => s === '*' || /^https?:$/i.test(s));
  }
  return false;
}
