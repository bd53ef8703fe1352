/**
 * authentication.weak_credentials — an account signs in with a common password (OWASP API2:2023; the weak credential
 * is CWE-1391, the sign-up that allowed it CWE-521): anyone who tries the usual passwords takes the account over.
 *
 * Runs on sign-in operations (checks/support/login-operation.ts: a POST named login/sign-in/session/token with a
 * user-name or e-mail and a password in its JSON body; GraphQL `mutation.login(username, password)` alike).
 * Accounts tried: never the scan's own identities (their names from their tokens' claims, the `me`-like field of a
 * GraphQL schema, the user name of a `scan curl` login) — only names the description or the API's answers expose as
 * other accounts (a description example; a GraphQL accounts list such as `users { username }`, read only once the
 * identities' own names are known), names given with --weak-credentials-user, and well-known defaults (admin, test…;
 * for e-mail logins, at the domains the scan saw). At most 5 accounts besides the given ones.
 * Requests: up to 2 GraphQL reads of account names; with a `scan curl` login, the login as given (the known-good
 * answer's shape; its password is redacted from the report); 1 control (a random wrong password); then at most
 * --weak-credentials-tries guesses (default 20), one password at a time across the accounts (a spray: each account
 * sees few failures), stopping at the first sign-in; then the proof: the same sign-in again and a wrong password
 * for that account. A 429, 423 or an answer saying the account is locked or sign-ins throttled stops the check at
 * once, skipped with that reason.
 * Verdict: failed when a guess signs in twice (a success answer carrying a token or a session cookie the failed
 * control did not get; with a known-good login, that answer's shape) and the wrong password for the same account does
 * not. The password and the session the target answered are registered with ctx.redact: the report never holds them.
 * Passed when no guess signs in. Skipped when a wrong password signs in too (nothing tells a right one apart).
 */
import { randomBytes } from 'node:crypto';
import {
  defineCheck,
  parseUnverified,
  withInputs,
  type CheckContext,
  type Operation,
  type ProbeResponse,
} from '../scanner/api.js';
import { passwordsFor } from './support/common-passwords.js';
import { accountNames, accountQueries } from './support/graphql-accounts.js';
import { answerStatus } from './support/graphql-answer.js';
import { postRequest } from './support/graphql-probe.js';
import { newSession, refusal, sessionValues, signedIn, throttled } from './support/login-answer.js';
import { loginInputs, takesEmail, type LoginInputs } from './support/login-operation.js';
import { asOther } from './support/other-identity.js';
import { AS_OTHER, IDENTITY } from './support/shared-options.js';

const ISSUE = 'broken_authentication.weak_credentials';
/** Accounts tried besides the ones the user names: a spray over more would leave each one a guess or two. */
const MAX_ACCOUNTS = 5;
const DEFAULT_ACCOUNTS = ['admin', 'test', 'administrator', 'guest', 'demo'];
/** What the scanner itself fills a user-name input with (scanner/openapi/sample-value.ts, scanner/graphql/): no account. */
const FILLERS = new Set([
  'test',
  'string',
  'scanner',
  'scanner@example.com',
  'gatehouse-scan',
  'gatehouse-scan@example.com',
]);
const CLAIMS = ['sub', 'preferred_username', 'username', 'email', 'name', 'upn', 'login', 'nickname', 'unique_name'];

/** Compares account names the way sign-ins usually do: case aside, and an e-mail's local part as a user name. */
const keysOf = (name: string): string[] => {
  const lower = name.toLowerCase();
  return lower.includes('@') ? [lower, lower.split('@')[0]] : [lower];
};

/** Names in a credential's claims, when it is a JWT (`Bearer x` or the bare token). */
function claimedNames(value: string | undefined): string[] {
  if (!value) return [];
  const parsed = parseUnverified(/^\S+\s+(\S+)$/.exec(value)?.[1] ?? value);
  if (!parsed.ok) return [];
  return CLAIMS.map((claim) => parsed.jwt.claims?.[claim]).filter((v): v is string => typeof v === 'string');
}

interface Accounts {
  /** The scan identities' own names: never tried. */
  own: string[];
  /** Names the description or the API's answers expose. */
  exposed: string[];
}

/** The identities' names and the exposed accounts, from the credentials' claims and, on GraphQL, the schema's reads. */
async function knownAccounts(ctx: CheckContext, inputs: LoginInputs, other: boolean): Promise<Accounts> {
  const operation = ctx.operation;
  // What the API model learned of each identity's own record (its token's claims, its profile) names it too.
  const learned = ctx.model.identities.flatMap((identity) => Object.values(identity.self));
  const own = [...claimedNames(operation.credential?.value), ...learned];
  const exposed: string[] = [];
  const given = typeof inputs.user.example === 'string' ? inputs.user.example : '';
  // A `scan curl` login is the user's own request: its user name is an identity. A description's example is not.
  if (given && operation.inputs === undefined) own.push(given);
  else if (given && !FILLERS.has(given.toLowerCase())) exposed.push(given);
  if (operation.graphql) {
    const queries = accountQueries(operation, inputs.user.name);
    const read = async (document: string, as: 'first' | 'other'): Promise<string> => {
      const probe = postRequest(operation, { query: document });
      const answer = await ctx.http.send(as === 'other' ? { ...probe, ...asOther() } : probe);
      return answer.body;
    };
    let everyoneKnown = false;
    if (queries.me) {
      const first = operation.credential ? accountNames(await read(queries.me.document, 'first'), queries.me) : [];
      const second = other ? accountNames(await read(queries.me.document, 'other'), queries.me) : [];
      own.push(...first, ...second);
      everyoneKnown = (!operation.credential || first.length > 0) && (!other || second.length > 0);
    }
    // The answers' names include the identities' own: read them only when each identity's is known, to leave it out.
    if (queries.list && everyoneKnown)
      exposed.push(...accountNames(await read(queries.list.document, 'first'), queries.list));
  }
  return { own, exposed };
}

/** The accounts to try, the user's first, then the exposed ones, then the defaults; never an identity's. */
function accountsToTry(accounts: Accounts, given: readonly string[], email: boolean): string[] {
  const ownKeys = new Set(accounts.own.flatMap(keysOf));
  const domains = [
    ...new Set(
      [...accounts.own, ...accounts.exposed].filter((n) => n.includes('@')).map((n) => n.split('@')[1].toLowerCase()),
    ),
  ];
  const defaults = email ? domains.flatMap((d) => DEFAULT_ACCOUNTS.map((name) => `${name}@${d}`)) : DEFAULT_ACCOUNTS;
  const fitting = (name: string): boolean => name.includes('@') === email;
  const seen = new Set<string>();
  const pick = (names: readonly string[]): string[] =>
    names.filter((name) => {
      const key = name.toLowerCase();
      if (seen.has(key) || keysOf(name).some((k) => ownKeys.has(k))) return false;
      seen.add(key);
      return true;
    });
  const mine = pick(given);
  return [...mine, ...pick([...accounts.exposed.filter(fitting), ...defaults]).slice(0, MAX_ACCOUNTS)];
}

/** One password at a time across the accounts (a spray), at most `tries` guesses. */
function guesses(accounts: readonly string[], tries: number): { account: string; password: string }[] {
  const lists = accounts.map((account) => ({ account, passwords: passwordsFor(account) }));
  const out: { account: string; password: string }[] = [];
  for (let round = 0; out.length < tries && lists.some((l) => round < l.passwords.length); round += 1)
    for (const { account, passwords } of lists)
      if (round < passwords.length && out.length < tries) out.push({ account, password: passwords[round] });
  return out;
}

const wrongPassword = (): string => `Gatehouse-wrong-${randomBytes(6).toString('hex')}`;

export default defineCheck({
  id: 'authentication.weak_credentials',
  name: 'Weak Credentials',
  issues: [
    {
      id: ISSUE,
      name: 'An account signs in with a common password',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 9.3 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-1391: Use of Weak Credentials' },
      // A sign-in is public by nature: that is where a common password is a finding.
      holdsOnPublicOperations: true,
    },
  ],
  options: [
    {
      name: 'weakCredentialsTries',
      type: 'integer',
      flag: '--weak-credentials-tries',
      doc: 'password guesses per sign-in operation (more than 20 is an opt-in: mind account lockouts)',
      default: 20,
      min: 1,
      max: 1000,
    },
    {
      name: 'weakCredentialsUser',
      type: 'string[]',
      flag: '--weak-credentials-user',
      valueName: '<name>',
      doc: "an account to try common passwords on (the scan identities' own are never tried)",
    },
    AS_OTHER,
    IDENTITY,
  ],
  appliesTo: (operation) => {
    const inputs = loginInputs(operation);
    return typeof inputs === 'string' ? inputs : true;
  },
  async run(ctx) {
    const operation: Operation = ctx.operation;
    const inputs = loginInputs(operation) as LoginInputs;
    const other = ctx.model.identity('other') !== undefined;
    const send = (account: string, password: string): Promise<ProbeResponse> =>
      ctx.http.send(
        withInputs(operation, [
          { input: inputs.user, value: account },
          { input: inputs.password, value: password },
        ]),
      );
    const stop = (response: ProbeResponse, to: string): never =>
      ctx.skip(`the target throttles or locks sign-ins (${refusal(response, operation)} to ${to}): stopped there`);

    // A `scan curl` login carries the user's own password: a secret like the scan's credential, and a known-good answer.
    let knownGood: ProbeResponse | undefined;
    const givenPassword = inputs.password.sent ? inputs.password.example : undefined;
    if (operation.inputs === undefined && typeof givenPassword === 'string' && givenPassword.length >= 4) {
      ctx.redact(givenPassword);
      const answer = await ctx.http.send();
      for (const value of sessionValues(answer)) if (value.length >= 4) ctx.redact(value);
      if (throttled(answer, operation)) stop(answer, 'the login as given');
      knownGood = answer;
    }
    const accounts = await knownAccounts(ctx, inputs, other);
    const targets = accountsToTry(accounts, ctx.options.weakCredentialsUser ?? [], takesEmail(inputs.user));
    if (targets.length === 0)
      return ctx.skip('no account to try: give one with --weak-credentials-user (the scan identities are never tried)');

    const control = await send(targets[0], wrongPassword());
    if (throttled(control, operation)) stop(control, 'a wrong password');
    // The login as given is known-good only when it signed in where a wrong password did not.
    if (knownGood && !signedIn(knownGood, operation, control)) knownGood = undefined;
    if (signedIn(control, operation, control))
      return ctx.skip('a wrong password is answered like a sign-in: nothing tells a right one apart');

    const planned = guesses(targets, ctx.options.weakCredentialsTries);
    for (const [index, { account, password }] of planned.entries()) {
      const response = await send(account, password);
      if (throttled(response, operation)) stop(response, `guess ${index + 1} of ${planned.length}, none signed in`);
      if (!signedIn(response, operation, control, knownGood)) continue;
      // Registered before anything else is recorded or reported: the report never holds them.
      ctx.redact(password);
      for (const value of sessionValues(response)) if (value.length >= 4) ctx.redact(value);
      const again = await send(account, password);
      for (const value of sessionValues(again)) if (value.length >= 4) ctx.redact(value);
      const wrong = await send(account, wrongPassword());
      if (throttled(wrong, operation)) stop(wrong, `the proof of guess ${index + 1}`);
      if (!signedIn(again, operation, control, knownGood) || signedIn(wrong, operation, control, knownGood)) {
        ctx.log.debug(`${account}: a guess signed in once, but the proof did not hold`);
        continue;
      }
      const session = [...new Set(newSession(response, control))].join(' and ');
      return ctx.report(ISSUE, {
        detail:
          // Worded without the guesses' words: the found one is redacted wherever it appears, this text included.
          `the account "${account}" signs in with a common guess (guess ${index + 1} of ${planned.length}, ` +
          `${targets.length} account${targets.length === 1 ? '' : 's'} tried): answered ${answerStatus(response, operation)} with ` +
          `${session}, twice, while a wrong one for it got ${refusal(wrong, operation)}. What it accepted and the session it ` +
          'answered are redacted from this report. Set a strong one, and refuse common ones when they are set.',
        attempt: again,
        attempts: [control, response, wrong],
      });
    }
    ctx.log.debug(`no common password among ${planned.length} guesses on ${targets.join(', ')}`);
  },
});
