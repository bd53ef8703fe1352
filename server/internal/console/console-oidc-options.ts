/** The OpenID Connect client that signs reviewers in to the review console (console-settings.ts reads it). */
export interface ConsoleOidcOptions {
  /** The authorization server's issuer; its discovery document gives every endpoint. */
  issuer: string;
  clientId: string;
  /** Confidential client: authenticates at the token and introspection endpoints (client_secret_basic). */
  clientSecret: string;
  /** Absolute URL of `<mount>/callback`, registered at the authorization server. */
  redirectUri: string;
  /** RFC 8707 resource whose scopes (`gatehouse:review`, `gatehouse:admin`) the console asks for: the internal audience. */
  resource?: string;
}
