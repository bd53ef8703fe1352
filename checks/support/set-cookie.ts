/** Parses one `Set-Cookie` header value into its name and attributes (RFC 6265 §5.2; attribute names are case-insensitive). */

export interface SetCookie {
  name: string;
  secure: boolean;
  httpOnly: boolean;
  /** The SameSite value as written, lower-cased; undefined when absent. */
  sameSite?: string;
  expires?: string;
  maxAge?: string;
}

export function parseSetCookie(header: string): SetCookie {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const cookie: SetCookie = { name: (eq >= 0 ? pair.slice(0, eq) : pair).trim(), secure: false, httpOnly: false };
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at >= 0 ? attribute.slice(0, at) : attribute).trim().toLowerCase();
    const value = at >= 0 ? attribute.slice(at + 1).trim() : '';
    if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = value.toLowerCase();
    else if (key === 'expires') cookie.expires = value;
    else if (key === 'max-age') cookie.maxAge = value;
  }
  return cookie;
}
