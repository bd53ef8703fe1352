/**
 * authentication.user_enumeration — login, registration and password-reset operations that tell an existing account
 * from an unknown one (OWASP API2:2023): an attacker learns which users exist, then targets them. Recognised from the
 * path, operationId and summary (login/signin/session/token, register/signup, forgot/recover/reset password) and a
 * body with a user-name or e-mail input (and, for login, a password input).
 * The known user: in OpenAPI scans with a registration operation, a user the scan registers itself first (one more
 * request; the account stays, the detail names it); otherwise the one the operation sends (the curl body, or the
 * description's example, which may not exist — then both answers agree and the check passes).
 *
 * Requests: 3 (4 with the registration), one at a time. Login and reset: A) the known user (with a wrong password for login), A') the same again,
 * B) an unknown user (`gatehouse-<random>`), same wrong password. Registration: A) the known user, so it exists,
 * A') the known user again (now "already exists"), B) an unknown user — which registers an account the scan cannot
 * delete (the detail names it). The known user's real password is never sent: nothing secret lands in the evidence.
 * Verdict: failed when B's status differs from A', or its body differs once ids, times, tokens and the submitted names
 * are normalised away (checks/support/normalise-body.ts) — and, for login and reset, A and A' agree (the answer is
 * stable, so the difference is the user). Response times are in the detail as corroboration only, never the verdict.
 * Login and reset are scored 6.9; registration is Info (`…_registration`, 0): most sign-up flows must refuse a taken
 * name, and only answering both with "check your e-mail" avoids it. Passed when the answers agree. Never sent when the operation is destructive (a path naming `reset` is: only
 * --allow-destructive scans it).
 */
import { randomBytes } from 'node:crypto';
import {
  operationClass,
  defineCheck,
  operationInputs,
  withInputs,
  type CheckContext,
  type Operation,
  type OperationInput,
  type ProbeResponse,
} from '../scanner/api.js';
import { normaliseBody } from './support/normalise-body.js';

const ISSUE = 'broken_authentication.user_enumeration';
const REGISTRATION_ISSUE = 'broken_authentication.user_enumeration_registration';
const USER_FIELD =
  /^(user(_?name)?|login|e?-?mail(_?address)?|email|account(_?name)?|handle|phone(_?number)?|identifier)$/i;
const PASSWORD_FIELD = /^(pass(word)?|passwd|pwd|current_?password)$/i;

type Kind = 'login' | 'register' | 'reset';

const words = (operation: Operation): string =>
  [operation.path, operation.operationId ?? '', operation.summary ?? '']
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** Which authentication operation this is, from its names and inputs. */
export function authenticationKind(operation: Operation): Kind | undefined {
  if (operation.method.toUpperCase() !== 'POST') return undefined;
  const text = words(operation);
  const hasPassword = bodyInputs(operation).some((f) => PASSWORD_FIELD.test(f.name));
  if (/forgot|recover|reset|lost[ _-]?password/.test(text)) return 'reset';
  if (/regist|sign[ _-]?up|\bjoin\b/.test(text)) return 'register';
  if (/log[ _-]?in|sign[ _-]?in|log[ _-]?on|authenticat|session|\btokens?\b/.test(text) && hasPassword) return 'login';
  if (/\/users\/?$/.test(operation.path) && hasPassword) return 'register';
  return undefined;
}

/** Body fields (JSON at any depth, form, multipart) and GraphQL arguments: where credentials are sent. */
const bodyInputs = (operation: Operation): OperationInput[] =>
  operationInputs(operation).filter((f) => f.location === 'body' || f.location === 'argument');

const userField = (operation: Operation): OperationInput | undefined =>
  bodyInputs(operation).find(
    (f) => USER_FIELD.test(f.name) && (f.example === undefined || typeof f.example === 'string'),
  );

function unknownUser(field: OperationInput, known: string): string {
  const tag = `gatehouse-${randomBytes(5).toString('hex')}`;
  return known.includes('@') || /mail/i.test(field.name) || field.format === 'email' ? `${tag}@example.com` : tag;
}

const differ = (a: ProbeResponse, b: ProbeResponse, submitted: string[]): string | undefined => {
  if (a.status !== b.status) return `status ${a.status} vs ${b.status}`;
  const x = normaliseBody(a.body, submitted);
  const y = normaliseBody(b.body, submitted);
  return x === y
    ? undefined
    : `same status ${a.status}, different bodies (${JSON.stringify(x.slice(0, 120))} vs ${JSON.stringify(y.slice(0, 120))})`;
};

/**
 * OpenAPI login operations: registers a fresh user through the description's registration (its generated body with
 * unique user names and a strong password) and returns the name the login takes, or undefined when that fails.
 */
async function registerKnownUser(ctx: CheckContext, field: OperationInput): Promise<string | undefined> {
  // The model's sign-up with fresh keys it chose (the send gate refuses any other: a description's example may be
  // someone's account); other user-like values made unique, a strong password.
  const signUp = ctx.model.operations.find((op) => ctx.model.placeOf(op)?.role === 'sign-up');
  if (!signUp) return undefined;
  const fresh = ctx.model.requestAs(signUp, undefined, { fresh: true });
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(fresh.probe.body ?? '') as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const chosen = new Set(fresh.values.filter((v) => v.ref.creates).map((v) => v.ref.name));
  const tag = randomBytes(5).toString('hex');
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== 'string' || chosen.has(name)) continue;
    if (USER_FIELD.test(name))
      body[name] = value.includes('@') || /mail/i.test(name) ? `gh_${tag}@example.com` : `gh_${tag}`;
    else if (PASSWORD_FIELD.test(name)) body[name] = `Gh-${tag}-Aa1!x`;
  }
  const known = body[field.name];
  if (typeof known !== 'string') return undefined;
  const response = await ctx.http.send({
    method: 'POST',
    url: fresh.probe.url,
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json' },
    credential: null,
  });
  return response.status >= 200 && response.status < 300 ? known : undefined;
}

export default defineCheck({
  id: 'authentication.user_enumeration',
  name: 'User Enumeration',
  issues: [
    {
      id: ISSUE,
      name: 'Existing and unknown users get different answers',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:L/VI:N/VA:N/SC:N/SI:N/SA:N', score: 6.9 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-204: Observable Response Discrepancy' },
    },
    {
      // Info: most sign-up flows must refuse a taken name; only a "check your e-mail" answer for both avoids it.
      id: REGISTRATION_ISSUE,
      name: 'Registration tells taken user names from free ones',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa2-broken-authentication/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:N/VI:N/VA:N/SC:N/SI:N/SA:N', score: 0 },
      classifications: { owasp: 'API2:2023 Broken Authentication', cwe: 'CWE-204: Observable Response Discrepancy' },
    },
  ],
  appliesTo: (operation) => {
    const kind = authenticationKind(operation);
    if (!kind) return 'not a login, registration or password-reset operation with a user-name input';
    if (operationClass(operation) === 'destructive')
      return 'destructive operation (its name says reset…): never sent at defaults';
    return userField(operation) ? true : 'no user-name or e-mail input in the body';
  },
  async run(ctx) {
    const operation = ctx.operation;
    const kind = authenticationKind(operation)!;
    const field = userField(operation)!;
    const registered = kind === 'login' ? await registerKnownUser(ctx, field) : undefined;
    const given =
      typeof field.example === 'string' && field.example !== ''
        ? field.example
        : field.format === 'email'
          ? 'scanner@example.com'
          : 'scanner';
    const known = registered ?? given;
    // Registering "an unknown user" creates one: its key must be one the scan chose (the send gate says so).
    const chosenKey =
      kind === 'register'
        ? ctx.model
            .requestAs(operation, undefined, { fresh: true })
            .values.find((v) => v.ref.creates && v.ref.pointer === `/${field.name}`)?.value
        : undefined;
    const unknown = chosenKey ?? unknownUser(field, known);
    const password = bodyInputs(operation).find((f) => PASSWORD_FIELD.test(f.name));
    const wrong = `Gatehouse-wrong-${randomBytes(6).toString('hex')}`;
    const send = (user: string): Promise<ProbeResponse> =>
      ctx.http.send(
        withInputs(operation, [
          { input: field, value: user },
          ...(kind === 'login' && password ? [{ input: password, value: wrong }] : []),
        ]),
      );
    const first = await send(known);
    const again = await send(known);
    const other = await send(unknown);
    const submitted = [known, unknown];
    if (kind !== 'register' && differ(first, again, submitted)) {
      return ctx.skip('the known user got two different answers to the same request: nothing stable to compare with');
    }
    const difference = differ(again, other, submitted);
    if (!difference) return;
    const what =
      kind === 'login'
        ? 'a wrong password for an existing user and an unknown user'
        : kind === 'register'
          ? 'registering an existing user and a new one'
          : 'a password reset for an existing user and an unknown one';
    const created =
      kind === 'register' && other.status >= 200 && other.status < 300
        ? ` The scan registered "${unknown}" and cannot delete it.`
        : registered
          ? ` The known user "${registered}" was registered by the scan for this (not deleted: no operation removes it).`
          : '';
    ctx.report(kind === 'register' ? REGISTRATION_ISSUE : ISSUE, {
      detail: `${what} are answered differently: ${difference}; times ${again.durationMs} ms vs ${other.durationMs} ms (corroboration only).${created}`,
    });
  },
});
