/**
 * The scan identities at run time: each with its role, how a request is sent as it (the operation's own credential,
 * a header, or a token a provider obtained), what it is (its own record's id, username, email… learned from a me-like
 * answer, its token's claims or its login answer), and every credential value it held, for redaction.
 */
import type { Operation, ProbeRequest } from '../api.js';
import type { CredentialProvider } from './credentials/credential-provider.js';
import { roleLevel, type IdentitySpec } from './identity-spec.js';

export const FIRST = 'first';
export const OTHER = 'other';

export interface ScanIdentity {
  readonly name: string;
  readonly role: string;
  /** 0 anonymous, 1 ordinary user, 2 staff, 3 administrator (identity-spec.ts roleLevel). */
  readonly level: number;
  readonly spec: IdentitySpec;
  /** Fields of its own record (`id`, `username`, `email`, `sub`…) and where each came from. */
  readonly self: Record<string, string>;
  readonly selfFrom: Record<string, string>;
  learn(field: string, value: unknown, from: string): void;
  /** The probe fields that send `operation` as this identity (`{}` for the operation's own credential). */
  probeFields(operation: Operation): Pick<ProbeRequest, 'credential' | 'headers'>;
  /** A provider that obtains and renews its credential, when the scanner obtains it itself. */
  readonly provider?: CredentialProvider;
  /** Gives it the provider the model built for its credential spec (before the scan starts). */
  attach(provider: CredentialProvider): void;
  /** Every credential value it held, for redaction. */
  secrets(): string[];
  /** Its password when the scan signs it in itself (a login or a password grant): what a password field keeps. */
  password(): string | undefined;
}

const bare = (value: string): string => /^\S+\s+(\S+)$/.exec(value)?.[1] ?? value;

export function createIdentity(spec: IdentitySpec, given?: CredentialProvider): ScanIdentity {
  let provider = given;
  const self: Record<string, string> = {};
  const selfFrom: Record<string, string> = {};
  const credential = spec.credential;
  const identity: ScanIdentity = {
    get provider() {
      return provider;
    },
    attach(next) {
      provider = next;
    },
    name: spec.name,
    role: spec.role ?? 'user',
    level: roleLevel(spec.role),
    spec,
    self,
    selfFrom,
    learn(field, value, from) {
      if ((typeof value !== 'string' && typeof value !== 'number') || value === '' || field in self) return;
      self[field] = String(value);
      selfFrom[field] = from;
    },
    probeFields(operation) {
      if (provider) {
        const token = provider.current();
        if (token === undefined) return {};
        // The token goes where the operation's credential goes; an operation without one gets it as a bearer token.
        return operation.credential ? { credential: token } : { headers: { Authorization: `Bearer ${token}` } };
      }
      if (credential.kind === 'header') return { credential: null, headers: { [credential.header]: credential.value } };
      return {};
    },
    password() {
      if (credential.kind === 'oauth2') return credential.password;
      if (credential.kind !== 'login') return undefined;
      return Object.entries(credential.fields).find(([key]) => /^pass(word)?$|^passwd$|^pwd$/i.test(key))?.[1];
    },
    secrets() {
      const values = provider ? provider.secrets() : [];
      if (credential.kind === 'header') values.push(credential.value, bare(credential.value));
      if (credential.kind === 'login')
        values.push(
          ...Object.entries(credential.fields)
            .filter(([k]) => /pass|secret|token|key/i.test(k))
            .map(([, v]) => v),
        );
      if (credential.kind === 'oauth2')
        values.push(...[credential.clientSecret, credential.password].filter((v): v is string => Boolean(v)));
      return values;
    },
  };
  return identity;
}
