/**
 * A credential the scanner obtains and renews itself (docs/architecture.md §2.8, "credentials as a provider"): a
 * login operation of the description, or an OAuth 2.0 grant. The scan asks for the current token before each request
 * and renews it when it is about to expire or a 401 the identity canary confirms says it has.
 */
export interface CredentialProvider {
  /** What obtains it, for reasons and the report (`login through POST /api/login`, never a secret). */
  readonly describe: string;
  /** Obtains the first token; throws a readable error when it cannot. */
  start(): Promise<void>;
  /** The token to send now (undefined before `start`). */
  current(): string | undefined;
  /** When the current token expires (ms since the epoch), when known: its `exp` claim or the answer's `expires_in`. */
  expiresAt(): number | undefined;
  /**
   * Obtains a new token (login again, ask the token endpoint again); concurrent calls share one renewal. Resolves to
   * whether a new token was obtained.
   */
  renew(reason: string): Promise<boolean>;
  /** How many times it renewed, and why (the report's account). */
  renewals(): readonly { at: Date; reason: string; ok: boolean }[];
  /** Every value it held and sent (tokens, passwords, client secrets), for redaction. */
  secrets(): string[];
  /** Fields the sign-in answered about the identity (`id`, `username`…), and the token's claims, when readable. */
  learned(): Record<string, unknown>;
}

/**
 * `renew` and `renewals` of a provider whose token comes from `obtain`: concurrent renewals share one call, and each
 * one is logged with its reason and outcome (the report's account of renewals).
 */
export function sharedRenewal(obtain: () => Promise<unknown>): Pick<CredentialProvider, 'renew' | 'renewals'> {
  let renewing: Promise<boolean> | undefined;
  const log: { at: Date; reason: string; ok: boolean }[] = [];
  return {
    renew(reason) {
      renewing ??= obtain()
        .then(() => true)
        .catch(() => false)
        .then((ok) => {
          log.push({ at: new Date(), reason, ok });
          renewing = undefined;
          return ok;
        });
      return renewing;
    },
    renewals: () => log,
  };
}
