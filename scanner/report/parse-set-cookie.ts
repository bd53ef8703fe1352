/** Parses a `Set-Cookie` header (RFC 6265 §5.2) into a cookie with lower-case keys, as the report shows it. */
import type { CookieReport } from './report-types.js';

export function parseSetCookie(header: string): CookieReport {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const cookie: CookieReport = {
    name: (eq >= 0 ? pair.slice(0, eq) : pair).trim(),
    value: eq >= 0 ? pair.slice(eq + 1).trim() : '',
  };
  for (const attribute of attributes) {
    const [rawKey = '', ...rest] = attribute.split('=');
    const key = rawKey.trim().toLowerCase();
    const value = rest.join('=').trim();
    if (key === 'path') cookie.path = value;
    else if (key === 'domain') cookie.domain = value;
    else if (key === 'expires') cookie.expires = value;
    else if (key === 'max-age' && /^-?\d+$/.test(value)) cookie.maxAge = Number(value);
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = value;
  }
  return cookie;
}
