/**
 * Client authentication and proof keys: `none` only for public clients (and public clients only with `none`),
 * key-based methods need registered keys, `jwks` and `jwksUri` never both (RFC 7591 §2), PKCE for public clients
 * (RFC 9700 §2.1.1), and the profile's method list, PKCE and PAR (RFC 9126) requirements.
 */
import type { FieldError } from '../../../lib/app-error.js';
import { clientTypeRule, KEY_BASED_AUTH_METHODS, TOKEN_ENDPOINT_AUTH_METHODS } from './platform-policy.js';
import type { PolicyContext } from './policy-context.js';

export function clientAuthenticationProblems(ctx: PolicyContext): FieldError[] {
  const problems: FieldError[] = [];
  const { config, raw, profile } = ctx;
  const method = config.tokenEndpointAuthMethod;
  const path = 'config.tokenEndpointAuthMethod';

  if (!(TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)) {
    problems.push({ path, message: `${method} is not a supported token endpoint authentication method` });
  } else if (ctx.clientType === 'public' && method !== 'none') {
    problems.push({ path, message: 'must be none: public clients cannot keep a secret or key (RFC 6749 §2.1)' });
  } else if (ctx.clientType === 'confidential' && method === 'none') {
    problems.push({ path, message: 'none is only for public clients; confidential clients must authenticate' });
  } else if (
    clientTypeRule(ctx.clientType) &&
    profile &&
    !profile.constraints.tokenEndpointAuthMethods.includes(method)
  ) {
    problems.push({
      path,
      message: `${method} is not allowed by policy profile ${profile.id} (allowed: ${profile.constraints.tokenEndpointAuthMethods.join(', ')})`,
    });
  }

  const hasJwks = raw.jwks !== undefined && raw.jwks !== null;
  const hasJwksUri = typeof raw.jwksUri === 'string';
  if (hasJwks && hasJwksUri)
    problems.push({ path: 'config.jwks', message: 'must not be given together with jwksUri (RFC 7591 §2)' });
  if (KEY_BASED_AUTH_METHODS.includes(method) && !hasJwks && !hasJwksUri) {
    problems.push({
      path: 'config.jwksUri',
      message: `is required (or jwks) for ${method}: the server needs the client's public keys`,
    });
  }

  if (raw.requirePkce === false) {
    if (ctx.clientType === 'public') {
      problems.push({
        path: 'config.requirePkce',
        message: 'must be true: PKCE is required for public clients (RFC 9700 §2.1.1)',
      });
    } else if (profile?.constraints.requirePkce) {
      problems.push({ path: 'config.requirePkce', message: `must be true under policy profile ${profile.id}` });
    }
  }
  if (profile?.constraints.requirePushedAuthorizationRequests && !config.requirePushedAuthorizationRequests) {
    problems.push({
      path: 'config.requirePushedAuthorizationRequests',
      message: `must be true under policy profile ${profile.id}: authorization requests are pushed (RFC 9126)`,
    });
  }
  return problems;
}
