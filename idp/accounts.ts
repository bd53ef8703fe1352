/**
 * Users of the stub IdP and how one is chosen: from a file or JSON (docs/architecture.md §3.1), `login_hint` matching a
 * user's `sub`, `email` or `preferred_username`, else the default user. The claims a user holds are released by
 * oidc-provider according to the granted scopes.
 */
import { load } from 'js-yaml';
import type { Account, FindAccount } from 'oidc-provider';
import { idpError } from './errors.js';

export interface IdpUser {
  sub: string;
  /** The only scopes this user is granted, whatever is asked (`openid` always); absent: any (user-scopes.ts). */
  scopes?: readonly string[] | null;
  [claim: string]: unknown;
}

/** Fields of a user record that are lists of strings: `scopes` (not a claim), `roles` and `groups` (claims). */
const STRING_LISTS = ['scopes', 'roles', 'groups'] as const;

/** Fields of a user record that are not claims: never released. */
export const NOT_CLAIMS = ['scopes'] as const;

export const DEMO_USER: IdpUser = Object.freeze({
  sub: 'alice',
  name: 'Alice Example',
  given_name: 'Alice',
  family_name: 'Example',
  preferred_username: 'alice',
  email: 'alice@example.com',
  email_verified: true,
});

/** What is wrong with one user record, or undefined. */
function problemWith(user: unknown): 'claims' | 'sub' | (typeof STRING_LISTS)[number] | undefined {
  if (typeof user !== 'object' || user === null || Array.isArray(user)) return 'claims';
  const sub = (user as { sub?: unknown }).sub;
  if (typeof sub !== 'string' || sub.trim() === '') return 'sub';
  return STRING_LISTS.find((field) => {
    const value = (user as Record<string, unknown>)[field];
    return value !== undefined && !(Array.isArray(value) && value.every((v) => typeof v === 'string'));
  });
}

const listProblem = (field: string, where: string) => `has ${field} that is not a list of strings (${where})`;

/** Checks a users list given in code (or parsed): every user has a `sub`, none twice. */
export function acceptUsers(value: unknown): readonly IdpUser[] {
  if (!Array.isArray(value) || value.length === 0)
    throw idpError('invalid_users', 'must hold a non-empty list of users (or { users: [...] })');
  value.forEach((user, i) => {
    const problem = problemWith(user);
    if (problem === 'claims') throw idpError('invalid_users', `has a user that is not an object of claims (user ${i})`);
    if (problem === 'sub') throw idpError('invalid_users', `has a user without a "sub" (user ${i})`);
    if (problem) throw idpError('invalid_users', listProblem(problem, `user ${i}`));
  });
  const subs = new Set<string>();
  for (const user of value as IdpUser[]) {
    if (subs.has(user.sub)) throw idpError('invalid_users', `lists two users with sub "${user.sub}"`);
    subs.add(user.sub);
  }
  return value as IdpUser[];
}

/** Parses a users document (YAML or JSON): a list of users, or `{ users: [...] }`. */
export function parseUsers(text: string): readonly IdpUser[] {
  let doc: unknown;
  try {
    doc = load(text);
  } catch (error) {
    throw idpError('invalid_users', `is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  return acceptUsers(Array.isArray(doc) ? doc : (doc as { users?: unknown } | null)?.users);
}

/** Checks the default user given in code: an object of claims with a `sub`. */
export function acceptDefaultUser(value: unknown): IdpUser {
  const problem = problemWith(value);
  if (problem === 'claims') throw idpError('invalid_users', 'is not an object of claims');
  if (problem === 'sub') throw idpError('invalid_users', 'has no "sub" (a non-empty string)');
  if (problem) throw idpError('invalid_users', listProblem(problem, 'the default user'));
  return value as IdpUser;
}

/** Parses the `--default-user` JSON object. */
export function parseDefaultUser(json: string): IdpUser {
  let user: unknown;
  try {
    user = JSON.parse(json);
  } catch {
    throw idpError('invalid_users', 'must be a JSON object of claims with a "sub"');
  }
  return acceptDefaultUser(user);
}

export interface AccountDirectory {
  /** The configured users, then identities the testing API introduced. */
  readonly users: readonly IdpUser[];
  readonly defaultUser: IdpUser;
  /** The user a `login_hint` (or its absence) selects; undefined when the hint matches nobody. */
  choose(loginHint?: string): IdpUser | undefined;
  /** A user by sub, with the testing API's claims laid over the configured ones. */
  lookup(sub: string): IdpUser | undefined;
  /**
   * Gives `sub` these claims from now on (the testing API's next logins, minted tokens and user changes); with
   * `skipsPages` (default) that user's consent is then given without a page, as for an identity the API introduced.
   */
  override(sub: string, claims: Record<string, unknown>, skipsPages?: boolean): void;
  /** Whether `sub` got its identity from the testing API (its logins skip the pages). */
  isOverridden(sub: string): boolean;
  /** Back to the configured users only. */
  clearOverrides(): void;
  findAccount: FindAccount;
}

/** A user's claims: the record without the fields that are not claims. */
function withoutNonClaims(user: IdpUser): Record<string, unknown> {
  return Object.fromEntries(Object.entries(user).filter(([key]) => !(NOT_CLAIMS as readonly string[]).includes(key)));
}

/** Users, with the default user first (it is also selectable when it is not in the list). */
export function createAccountDirectory(users: readonly IdpUser[] = [], defaultUser?: IdpUser): AccountDirectory {
  const all = [...users];
  const chosenDefault = defaultUser ?? all[0] ?? DEMO_USER;
  if (!all.some((u) => u.sub === chosenDefault.sub)) all.unshift(chosenDefault);
  const bySub = new Map(all.map((u) => [u.sub, u]));
  const overrides = new Map<string, IdpUser>();
  const skipping = new Set<string>();

  function lookup(sub: string): IdpUser | undefined {
    const base = bySub.get(sub);
    const extra = overrides.get(sub);
    if (!extra) return base;
    return { ...base, ...extra, sub };
  }

  function choose(loginHint?: string): IdpUser | undefined {
    const hint = loginHint?.trim();
    if (!hint) return chosenDefault;
    const lower = hint.toLowerCase();
    return (
      bySub.get(hint) ??
      all.find((u) => typeof u.email === 'string' && u.email.toLowerCase() === lower) ??
      all.find((u) => u.preferred_username === hint)
    );
  }

  const findAccount: FindAccount = async (_ctx, id) => {
    const user = lookup(id);
    if (!user) return undefined;
    const account: Account = {
      accountId: user.sub,
      // oidc-provider filters these by the granted scopes and claims; `sub` always comes from accountId.
      claims: async () => ({ ...withoutNonClaims(user), sub: user.sub }),
    };
    return account;
  };

  return {
    get users() {
      return overrides.size
        ? [
            ...all.map((u) => lookup(u.sub)!),
            ...[...overrides.keys()].filter((sub) => !bySub.has(sub)).map((sub) => lookup(sub)!),
          ]
        : all;
    },
    defaultUser: chosenDefault,
    choose,
    lookup,
    override(sub, claims, skipsPages = true) {
      overrides.set(sub, { ...overrides.get(sub), ...claims, sub });
      if (skipsPages) skipping.add(sub);
    },
    isOverridden: (sub) => skipping.has(sub),
    clearOverrides: () => {
      overrides.clear();
      skipping.clear();
    },
    findAccount,
  };
}
