/**
 * Discovery trimmed to what the configured clients can use: oidc-provider lists every grant its
 * features allow and the `fragment` response mode of implicit flows; without registration, only the static
 * clients' grant types are usable, and with code-only response types nothing answers in a fragment.
 */
import type { AccessTokenFormat } from './settings.js';

export interface DiscoveryFacts {
  registration: boolean;
  /** grant_types of every static client. */
  clientGrantTypes: string[][];
  accessTokenFormat: AccessTokenFormat;
  /** `--resource`: listed as RFC 9728 §4's `protected_resources`. */
  resources: readonly string[];
}

/**
 * Extra metadata (RFC 8414 §2 allows additional parameters) saying what a relying party cannot learn otherwise:
 * RFC 9068 access tokens are self-contained, so introspection refuses them (400 `unsupported_token_type`) and revocation does
 * not reach them; they stay valid at `/me` and at resource servers until `exp`.
 */
const JWT_ACCESS_TOKEN_NOTE =
  'RFC 9068 JWT access tokens are self-contained: introspection refuses them (unsupported_token_type), revocation does not reach them, and they stay valid (at /me too) until exp; use opaque access tokens where revocation must take effect';

export function honestDiscovery(doc: Record<string, unknown>, facts: DiscoveryFacts): Record<string, unknown> {
  const out = { ...doc };
  const responseTypes = (doc.response_types_supported as string[] | undefined) ?? [];
  if (!responseTypes.some((t) => /\b(token|id_token)\b/.test(t))) {
    out.response_modes_supported = ((doc.response_modes_supported as string[] | undefined) ?? []).filter(
      (m) => m !== 'fragment',
    );
  }
  if (!facts.registration) {
    const usable = new Set(facts.clientGrantTypes.flat());
    out.grant_types_supported = ((doc.grant_types_supported as string[] | undefined) ?? []).filter((g) =>
      usable.has(g),
    );
  }
  if (facts.accessTokenFormat === 'jwt') out.access_token_revocation_note = JWT_ACCESS_TOKEN_NOTE;
  if (facts.resources.length) out.protected_resources = [...facts.resources];
  return out;
}
