/**
 * bfla.privilege_escalation — an ordinary user raises its own role (OWASP API5:2023, CWE-269): an update whose body
 * sets a role, permissions or group (a field so named: `role`, `roles`, `permissions`, `groups`, `isAdmin`…), sent by
 * the first identity on its own record (its own username in the body of a role operation, or its own record's path),
 * is accepted and the change shows — through an oracle that reads the record back (the operation's own read, the
 * identity's me-like read, the list: docs/architecture.md §2.8) or, when the record does not show the field, the claims
 * of a new token the scan signs the identity in for.
 *
 * Requests: 1) the identity's record read back (its current value); 2) the update with the field set to the most
 * privileged value the description allows (the enum value naming admin/staff, `true`, the list plus `admin`); 3) the
 * read-back; 4) the update with the earlier value (restore, always after a 2xx); 5) a read showing the restore.
 * Verdict: failed when 2 is 2xx and 3 shows the raised value; the evidence names the oracle and the chain's step 1.
 * The scan then raises the identity again after the checks and runs the function-level and input checks as it where
 * it was refused (scanner/engine/follow-chains.ts), and restores it. Passed when the update is refused or changes
 * nothing. Skipped on creates and sign-ins (bopla.mass_assignment covers a new account's role), when the record is
 * not the first identity's, and when nothing shows the field.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  defineCheck,
  parseUnverified,
  PRIVILEGE_FIELD,
  type CheckContext,
  type ObjectTarget,
  type OracleKind,
  type ProbeResponse,
  type ShapeField,
} from '../scanner/api.js';

const ISSUE = 'broken_function_level_authorization.privilege_escalation';
const ok = (status: number): boolean => status >= 200 && status < 300;

/** How privileged a role name sounds: administrators above staff above the rest. */
function rank(value: unknown): number {
  const text = String(value).toLowerCase();
  if (/admin|super|root|owner/.test(text)) return 3;
  if (/staff|manager|moderator|employee|chef|editor|operator|support/.test(text)) return 2;
  return 1;
}

/** The most privileged value `field` may take that the identity does not hold yet, or undefined. */
export function raisedValue(field: ShapeField, current: unknown): unknown {
  if (field.enum && field.enum.length > 0) {
    const candidates = field.enum.filter((v) => !isDeepStrictEqual(v, current));
    const best = [...candidates].sort((a, b) => rank(b) - rank(a))[0];
    return best !== undefined && rank(best) > rank(current) ? best : undefined;
  }
  if (field.type === 'boolean' || typeof current === 'boolean') return current === true ? undefined : true;
  if (field.type === 'array' || Array.isArray(current)) {
    const list: unknown[] = Array.isArray(current) ? (current as unknown[]) : [];
    return list.some((v) => rank(v) === 3) ? undefined : [...list, 'admin'];
  }
  return rank(current) === 3 ? undefined : 'admin';
}

function withField(body: string | undefined, name: string, value: unknown): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '{}');
  } catch {
    parsed = {};
  }
  const object = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  return JSON.stringify({ ...object, [name]: value });
}

interface Shown {
  value: unknown;
  response: ProbeResponse;
  oracle: { kind: OracleKind; operation: string };
  describe: string;
}

/** What the identity's record (or, failing that, a new token's claims) shows for `field`. */
async function show(ctx: CheckContext, target: ObjectTarget, field: string): Promise<Shown | string> {
  const read = await ctx.model.readBack(ctx.http, target, { write: ctx.operation, as: 'first' });
  if (read.object && read.response && read.oracle && read.object[field] !== undefined)
    return {
      value: read.object[field],
      response: read.response,
      oracle: { kind: read.oracle.kind, operation: read.oracle.operation.id },
      describe: read.oracle.describe,
    };
  const signIn = await ctx.model.signInAs(ctx.http, 'first');
  const parsed = signIn?.token ? parseUnverified(signIn.token) : undefined;
  const claim = parsed?.ok ? parsed.jwt.claims?.[field] : undefined;
  if (signIn && claim !== undefined)
    return {
      value: claim,
      response: signIn.response,
      oracle: { kind: 'token', operation: 'a new sign-in of the first identity' },
      describe: `the "${field}" claim of a new token`,
    };
  const tried = read.tried.map((t) => `${t.oracle.describe} → ${t.status}`).join('; ');
  return `neither the first identity's record (${tried || 'no read of it'}) nor a token of its own shows "${field}": a change of it could not be seen`;
}

export default defineCheck({
  id: 'bfla.privilege_escalation',
  name: 'Privilege escalation (own role)',
  issues: [
    {
      id: ISSUE,
      name: 'An ordinary user can raise its own role, permissions or group',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa5-broken-function-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', score: 8.7 },
      classifications: {
        owasp: 'API5:2023 Broken Function Level Authorization',
        cwe: 'CWE-285: Improper Authorization',
      },
    },
  ],
  dependsOn: ['auth.baseline'],
  scanKinds: ['openapi'],
  // While the identity is raised, every other check would send as an administrator: none runs meanwhile.
  exclusive: true,
  appliesTo: (operation) => {
    if (!operation.credential) return 'operation has no credential';
    if (!['POST', 'PUT', 'PATCH'].includes(operation.method.toUpperCase())) return 'not an update (POST/PUT/PATCH)';
    const fields = (operation.inputs ?? []).filter(
      (f) => f.in === 'body' && (f.pointer?.length ?? 1) === 1 && PRIVILEGE_FIELD.test(f.name),
    );
    return fields.length > 0 ? true : 'the body declares no role, permissions or group field';
  },
  async run(ctx) {
    const operation = ctx.operation;
    const place = ctx.model.placeOf(operation);
    if (!place) return ctx.skip('the API model does not place this operation (no description)');
    if (['create', 'sign-up', 'sign-in'].includes(place.role))
      return ctx.skip(`a ${place.role}: the role of a new account is bopla.mass_assignment's question`);
    const request = ctx.model.requestAs(operation, 'first');
    if (request.missing.length > 0)
      return ctx.skip(
        `the first identity has no value of its own for ${request.missing.map((r) => r.name).join(', ')}: the update would name someone else's record`,
      );
    const sent = request.probe.body ?? undefined;
    const target = ctx.model.targetOf(operation, { url: request.probe.url, body: sent }, 'first');
    if (!target || target.owner !== 'first')
      return ctx.skip(
        `the record it changes is not the first identity's own (${target ? `${target.resource} ${JSON.stringify(target.keys)}` : 'no object named'})`,
      );
    let field: ShapeField | undefined;
    let before: Shown | undefined;
    const reasons: string[] = [];
    for (const candidate of ctx.model.privilegeFields(operation)) {
      const shown = await show(ctx, target, candidate.name);
      if (typeof shown === 'string') reasons.push(shown);
      else {
        field = candidate;
        before = shown;
        break;
      }
    }
    if (!field || !before) return ctx.skip(reasons[0] ?? 'the body has no top-level role, permissions or group field');
    const raised = raisedValue(field, before.value);
    if (raised === undefined)
      return ctx.skip(
        `the first identity already holds the most privileged "${field.name}" (${JSON.stringify(before.value)})`,
      );
    const raise = { ...request.probe, body: withField(sent, field.name, raised), restores: true };
    const write = await ctx.http.send(raise);
    if (!ok(write.status)) return;
    const after = await show(ctx, target, field.name);
    const restore = { ...request.probe, body: withField(sent, field.name, before.value), restores: true };
    // Set back after any 2xx, shown or not: the cost is one request, the risk a scan identity left raised.
    const restoreAnswer = await ctx.http.send(restore);
    if (typeof after === 'string' || !isDeepStrictEqual(after.value, raised)) return;
    const check = await show(ctx, target, field.name);
    const restored =
      typeof check !== 'string' && isDeepStrictEqual(check.value, before.value)
        ? `set back to ${JSON.stringify(before.value)} afterwards (${restoreAnswer.status}; ${check.describe} shows it)`
        : `NOT set back (${restoreAnswer.status}): set "${field.name}" of the first identity to ${JSON.stringify(before.value)} by hand`;
    const what = `${operation.method.toUpperCase()} ${new URL(operation.url).pathname}`;
    const detail =
      `the first identity (${JSON.stringify(target.keys)}) changed its own "${field.name}" from ${JSON.stringify(before.value)} ` +
      `to ${JSON.stringify(raised)} with ${what} (${write.status}) and ${after.describe} shows it; ${restored}`;
    ctx.model.recordEscalation({
      identity: 'first',
      operation,
      field: field.name,
      from: before.value,
      to: raised,
      raise,
      restore,
      detail,
    });
    ctx.report(ISSUE, {
      detail,
      steps: [
        { attempt: before.response, role: `the identity's own "${field.name}" before (${before.describe})` },
        { attempt: write, role: `${what} raising it` },
        { attempt: after.response, role: `read-back (${after.describe})` },
        { attempt: restoreAnswer, role: `${what} setting it back` },
      ],
      oracle: { kind: after.oracle.kind, operation: after.oracle.operation, attempts: [after.response] },
      chain: [{ step: 1, role: 'raised', operation: operation.id, detail, attempts: [write, after.response] }],
    });
  },
});
