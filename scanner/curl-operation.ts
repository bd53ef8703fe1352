/**
 * Builds the operation of `scan curl` from its URL and flags, and detects the credential: `--oauth2-bearer`, `-u`,
 * an `Authorization` header (Bearer, Basic, anything else as an API key), or an API-key-like header (`*key*`,
 * `*token*`, `*secret*`). The credential header is removed from `headers`, matched case-insensitively, so
 * "unauthenticated" probes really carry no credential (VulnAPI's exact-match stripping missed `bearer x`).
 */
import type { Credential, Operation } from './api.js';
import type { CurlFlags } from './curl-args.js';
import { scannerError } from './errors.js';
import { isJwt } from './compact-jwt.js';

const API_KEY_HEADER = /key|token|secret/i;

/** Parses the target; a URL without a scheme is taken as http:// (curl's default). */
export function parseTargetUrl(raw: string): URL {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw scannerError('invalid_url', `${raw}: not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw scannerError('invalid_url', `${raw}: only http and https URLs can be scanned`);
  if (!url.hostname) throw scannerError('invalid_url', `${raw}: the URL has no host`);
  return url;
}

function parseHeaders(raw: string[]): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const line of raw) {
    const colon = line.indexOf(':');
    const semicolon = line.indexOf(';');
    let name: string;
    let value: string;
    if (colon > 0) {
      name = line.slice(0, colon).trim();
      value = line.slice(colon + 1).trim();
      // curl: "Name:" with nothing after it removes the header instead of sending it empty.
      if (value === '') continue;
    } else if (semicolon > 0 && semicolon === line.length - 1) {
      name = line.slice(0, semicolon).trim(); // curl: "Name;" sends an empty header
      value = '';
    } else {
      throw scannerError('invalid_argument', `-H ${line}: expected "Name: value"`);
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw scannerError('invalid_argument', `-H ${line}: invalid header name`);
    const existing = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    headers[existing ?? name] = [...(headers[existing ?? name] ?? []), value];
  }
  return headers;
}

export function parseCookies(raw: string[]): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const entry of raw) {
    if (!entry.includes('='))
      throw scannerError('invalid_argument', `-b ${entry}: cookie files are not supported; give "name=value; …"`);
    for (const pair of entry.split(';')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      cookies[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
    }
  }
  return cookies;
}

function takeHeader(headers: Record<string, string[]>, name: string): void {
  // The caller's header record loses the header in place, under whichever letter case it was given.
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
}

function setDefault(headers: Record<string, string[]>, name: string, value: string): void {
  if (!Object.keys(headers).some((k) => k.toLowerCase() === name.toLowerCase())) headers[name] = [value];
}

function bearer(value: string, schemeName = 'bearer_auth'): Credential {
  return {
    schemeName,
    type: 'http',
    scheme: 'bearer',
    in: 'header',
    name: 'Authorization',
    format: isJwt(value) ? 'jwt' : 'opaque',
    value,
  };
}

/** Finds the credential in the flags and headers, and removes its header from `headers`. */
export function detectCredential(flags: CurlFlags, headers: Record<string, string[]>): Credential | undefined {
  if (flags.oauth2Bearer) {
    takeHeader(headers, 'authorization');
    return bearer(flags.oauth2Bearer);
  }
  if (flags.user) {
    takeHeader(headers, 'authorization');
    const value = Buffer.from(flags.user.includes(':') ? flags.user : `${flags.user}:`).toString('base64');
    return {
      schemeName: 'basic_auth',
      type: 'http',
      scheme: 'basic',
      in: 'header',
      name: 'Authorization',
      format: 'opaque',
      value,
    };
  }
  const authorizationKey = Object.keys(headers).find((k) => k.toLowerCase() === 'authorization');
  if (authorizationKey) {
    const raw = headers[authorizationKey][0];
    takeHeader(headers, authorizationKey);
    // `Authorization: Bearer ` (a token variable that expanded to nothing): an empty credential, not an API key "Bearer".
    if (/^bearer$/i.test(raw.trim())) return bearer('');
    const match = /^(\S+)\s+(.+)$/.exec(raw);
    const scheme = match?.[1]?.toLowerCase();
    if (match && scheme === 'bearer') return bearer(match[2].trim());
    if (match && scheme === 'basic') {
      return {
        schemeName: 'basic_auth',
        type: 'http',
        scheme: 'basic',
        in: 'header',
        name: 'Authorization',
        format: 'opaque',
        value: match[2].trim(),
      };
    }
    return {
      schemeName: 'authorization',
      type: 'apiKey',
      in: 'header',
      name: authorizationKey,
      format: isJwt(raw) ? 'jwt' : 'opaque',
      value: raw,
    };
  }
  const apiKeyHeader = Object.keys(headers).find((k) => API_KEY_HEADER.test(k));
  if (apiKeyHeader) {
    const value = headers[apiKeyHeader][0];
    takeHeader(headers, apiKeyHeader);
    return {
      schemeName: apiKeyHeader.toLowerCase(),
      type: 'apiKey',
      in: 'header',
      name: apiKeyHeader,
      format: isJwt(value) ? 'jwt' : 'opaque',
      value,
    };
  }
  return undefined;
}

export function operationFromCurl(rawUrl: string, flags: CurlFlags): Operation {
  const url = parseTargetUrl(rawUrl);
  const headers = parseHeaders(flags.headers);
  const credential = detectCredential(flags, headers);
  if (flags.userAgent !== undefined) headers['User-Agent'] = [flags.userAgent];
  if (flags.referer !== undefined) headers.Referer = [flags.referer];

  let body: string | undefined;
  if (flags.json.length > 0) {
    body = flags.json.join('');
    setDefault(headers, 'Content-Type', 'application/json');
    setDefault(headers, 'Accept', 'application/json');
  } else if (flags.data.length > 0) {
    body = flags.data.join('&');
    setDefault(headers, 'Content-Type', 'application/x-www-form-urlencoded');
  }
  const method = flags.method ?? (body !== undefined ? 'POST' : 'GET');
  const path = url.pathname;
  return {
    id: `${method} ${path}${url.search}`,
    method,
    url: url.href,
    path,
    headers,
    cookies: parseCookies(flags.cookies),
    ...(body !== undefined ? { body } : {}),
    ...(credential ? { credential } : {}),
    securitySchemes: credential ? [credential.schemeName] : [],
  };
}
