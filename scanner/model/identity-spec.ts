/**
 * The scan identities as the user declares them (docs/architecture.md §2.8): `first` (the supplied credential),
 * `other` (`--as-other`), and any number more with `--identity NAME[:role]=CREDENTIAL`, where CREDENTIAL is a header
 * (`'Authorization: Bearer …'`) or a way for the scanner to obtain and renew one itself:
 *
 *   login:username=alice&password=env:ALICE_PASSWORD[&operation=POST /api/login][&token=/data/token]
 *   client-credentials:token_url=https://…&client_id=scanner&client_secret=file:/run/secret[&scope=…]
 *   password-grant:issuer=https://…&client_id=…&username=alice&password=env:ALICE_PASSWORD[&scope=…]
 *
 * A value may be `env:NAME` or `file:PATH` instead of the secret itself (never printed; redacted everywhere). A config
 * file's `identities:` list maps onto the same `IdentitySpec` (identitySpecFrom).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { scannerError } from '../errors.js';

export type CredentialSpec =
  /** The operation's own credential (`--security-schemes`, standard input, `-H`): the `first` identity's default. */
  | { kind: 'given' }
  | { kind: 'header'; header: string; value: string }
  | {
      kind: 'login';
      /** The description's sign-in operation (`POST /api/login`); the model finds it when not given. */
      operation?: string;
      /** The body fields sent (`username`, `password`…), values resolved. */
      fields: Record<string, string>;
      /** Where the token is in the answer (RFC 6901 pointer); found by name when not given. */
      token?: string;
    }
  | {
      kind: 'oauth2';
      grant: 'client_credentials' | 'password';
      tokenUrl?: string;
      issuer?: string;
      clientId: string;
      clientSecret?: string;
      username?: string;
      password?: string;
      scope?: string;
    };

export interface IdentitySpec {
  name: string;
  /** `user`, `admin`, `staff`…: what the identity is expected to be allowed (ranked by roleLevel). */
  role?: string;
  credential: CredentialSpec;
}

const NAME = /^[A-Za-z][\w-]{0,31}$/;
const HEADER = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(\S.*)$/;
const PROVIDERS = ['login', 'client-credentials', 'password-grant'] as const;

export interface SecretSources {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** A value, or the secret `env:NAME` / `file:PATH` points at (a file's trailing newline dropped). */
function secretValue(raw: string, where: string, sources: SecretSources): string {
  if (raw.startsWith('env:')) {
    const name = raw.slice(4);
    const value = sources.env[name];
    if (value === undefined || value === '')
      throw scannerError('invalid_argument', `${where}: environment variable ${name} is not set`);
    return value;
  }
  if (raw.startsWith('file:')) {
    const path = resolve(sources.cwd, raw.slice(5));
    try {
      return readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch {
      throw scannerError('invalid_argument', `${where}: ${raw.slice(5)} cannot be read`);
    }
  }
  return raw;
}

function pairs(text: string, where: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0)
      throw scannerError('invalid_argument', `${where}: expected key=value pairs joined by &, got "${part}"`);
    out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

function providerSpec(
  kind: (typeof PROVIDERS)[number],
  text: string,
  where: string,
  sources: SecretSources,
): CredentialSpec {
  const given = pairs(text, where);
  const take = (key: string): string | undefined => {
    const value = given.get(key);
    given.delete(key);
    return value === undefined ? undefined : secretValue(value, `${where} ${key}`, sources);
  };
  const need = (key: string): string => {
    const value = take(key);
    if (value === undefined) throw scannerError('invalid_argument', `${where}: ${kind} needs ${key}=…`);
    return value;
  };
  let spec: CredentialSpec;
  if (kind === 'login') {
    const operation = take('operation');
    const token = take('token');
    const fields = Object.fromEntries([...given.keys()].map((key) => [key, take(key)!]));
    if (Object.keys(fields).length === 0)
      throw scannerError(
        'invalid_argument',
        `${where}: login needs the sign-in fields, e.g. username=…&password=env:NAME`,
      );
    return { kind: 'login', fields, ...(operation ? { operation } : {}), ...(token ? { token } : {}) };
  }
  const tokenUrl = take('token_url');
  const issuer = take('issuer');
  if (!tokenUrl && !issuer) throw scannerError('invalid_argument', `${where}: ${kind} needs token_url=… or issuer=…`);
  const common = {
    kind: 'oauth2' as const,
    clientId: need('client_id'),
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(issuer ? { issuer } : {}),
  };
  const secret = take('client_secret');
  const scope = take('scope');
  if (kind === 'client-credentials')
    spec = {
      ...common,
      grant: 'client_credentials',
      ...(secret ? { clientSecret: secret } : {}),
      ...(scope ? { scope } : {}),
    };
  else
    spec = {
      ...common,
      grant: 'password',
      username: need('username'),
      password: need('password'),
      ...(secret ? { clientSecret: secret } : {}),
      ...(scope ? { scope } : {}),
    };
  if (given.size > 0) throw scannerError('invalid_argument', `${where}: unknown key ${[...given.keys()][0]}`);
  return spec;
}

/** The credential part of `--identity`: a header, or a provider (`login:…`, `client-credentials:…`, `password-grant:…`). */
function credentialSpec(text: string, where: string, sources: SecretSources): CredentialSpec {
  const colon = text.indexOf(':');
  const prefix = colon > 0 ? text.slice(0, colon) : '';
  if ((PROVIDERS as readonly string[]).includes(prefix) && /^[\w-]+=/.test(text.slice(colon + 1)))
    return providerSpec(prefix as (typeof PROVIDERS)[number], text.slice(colon + 1), where, sources);
  const header = HEADER.exec(text);
  if (!header)
    throw scannerError(
      'invalid_argument',
      `${where}: expected 'Header: value', login:…, client-credentials:… or password-grant:… (see scanner scan openapi --help)`,
    );
  return { kind: 'header', header: header[1], value: secretValue(header[2], where, sources) };
}

/** One `--identity NAME[:role]=CREDENTIAL`. */
export function parseIdentity(text: string, sources: SecretSources): IdentitySpec {
  const eq = text.indexOf('=');
  const head = eq > 0 ? text.slice(0, eq) : '';
  const [name = '', role, extra] = head.split(':');
  if (!NAME.test(name) || extra !== undefined || (role !== undefined && !NAME.test(role)))
    throw scannerError(
      'invalid_argument',
      `--identity ${head || text}: expected NAME[:role]='Header: value' (a name of letters, digits, - and _)`,
    );
  const credential = credentialSpec(text.slice(eq + 1), `--identity ${name}`, sources);
  return { name, ...(role ? { role } : {}), credential };
}

const ROLE_LEVELS: [RegExp, number][] = [
  [/^(anonymous|guest|public|none)$/i, 0],
  [/^(root|super_?user|super_?admin|owner|admin|administrator|sysadmin)$/i, 3],
  [/^(staff|employee|manager|moderator|operator|editor|support|agent|chef|reviewer|maintainer)$/i, 2],
];

/** How much a role may do: 0 anonymous, 1 an ordinary user (the default), 2 staff, 3 administrators. */
export function roleLevel(role: string | undefined): number {
  if (!role) return 1;
  return ROLE_LEVELS.find(([pattern]) => pattern.test(role))?.[1] ?? 1;
}
