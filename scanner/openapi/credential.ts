/**
 * The credential an OpenAPI operation is scanned with: the first security requirement whose schemes all have a
 * value (from `--security-schemes name=value` or the default token), using its first scheme. Unlike VulnAPI, OAuth 2.0 /
 * OpenID Connect (Bearer), API keys in query or cookie, and Basic credentials are all sent.
 */
import type { Credential } from '../api.js';
import { isJwt } from '../compact-jwt.js';
import { resolveRef } from './resolve-ref.js';

type SchemeObject = { type?: string; scheme?: string; bearerFormat?: string; in?: string; name?: string };

export interface CredentialValues {
  /** Values by security scheme name. */
  byScheme: Record<string, string>;
  /** Used for any scheme without its own value (e.g. a token read from standard input). */
  fallback?: string;
}

function credentialFor(name: string, scheme: SchemeObject, value: string): Credential | undefined {
  const type = scheme.type;
  if (type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') {
    return {
      schemeName: name,
      type: 'http',
      scheme: 'bearer',
      in: 'header',
      name: 'Authorization',
      format: scheme.bearerFormat?.toUpperCase() === 'JWT' || isJwt(value) ? 'jwt' : 'opaque',
      value,
    };
  }
  if (type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    const encoded = value.includes(':') ? Buffer.from(value).toString('base64') : value;
    return {
      schemeName: name,
      type: 'http',
      scheme: 'basic',
      in: 'header',
      name: 'Authorization',
      format: 'opaque',
      value: encoded,
    };
  }
  if (type === 'apiKey' && scheme.name && (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie')) {
    return {
      schemeName: name,
      type: 'apiKey',
      in: scheme.in,
      name: scheme.name,
      format: isJwt(value) ? 'jwt' : 'opaque',
      value,
    };
  }
  if (type === 'oauth2' || type === 'openIdConnect') {
    return {
      schemeName: name,
      type,
      in: 'header',
      name: 'Authorization',
      format: isJwt(value) ? 'jwt' : 'opaque',
      value,
    };
  }
  return undefined;
}

export function operationSecurity(
  document: Record<string, unknown>,
  requirements: Record<string, unknown>[],
  values: CredentialValues,
): { credential?: Credential; schemeNames: string[] } {
  const schemes = ((document.components as Record<string, unknown> | undefined)?.securitySchemes ?? {}) as Record<
    string,
    unknown
  >;
  const schemeNames = [...new Set(requirements.flatMap((r) => Object.keys(r)))];
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    if (names.length === 0) continue;
    const valued = names.map((n) => ({ n, value: values.byScheme[n] ?? values.fallback }));
    if (valued.some((v) => v.value === undefined)) continue;
    const first = valued[0];
    const scheme = resolveRef<SchemeObject>(document, schemes[first.n]);
    const credential = scheme ? credentialFor(first.n, scheme, first.value) : undefined;
    if (credential) return { credential, schemeNames };
  }
  return { schemeNames };
}
