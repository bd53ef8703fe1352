/**
 * bopla.mass_assignment — broken object property level authorization (OWASP API3:2023): a create or update accepts
 * properties the client must not set — privileges (admin, isAdmin, is_admin, role, roles, permissions, verified,
 * balance…), properties the description marks readOnly, and properties its answer has but its request does not list —
 * and the value is still there when the object is read back.
 * Runs on POST/PUT/PATCH operations with a JSON object body (never on destructive ones); at most 20 extra properties (one body: the count costs no requests),
 * those the operation already sends as given are left alone (the API lets the client set them).
 *
 * Requests, one at a time. Create (POST): 1) the operation with the extra properties added and its user-name/e-mail/name
 * values made unique (a second registration of the same user would only conflict), 2) a read-back of the created
 * object (Location, the description's GET for it, `<url>/<id>` in curl scans; a registration's new user in the user
 * list or through the token it was given), then only when a value stuck: 3) the same create without the extras and 4) its read-back, to
 * show the value is not a default; every object created is deleted again where a URL names it alone (DELETE on it,
 * the one destructive request the scan may send: docs/architecture.md §2.6; never on a list), and the detail says whether it was.
 * Update (PUT/PATCH): 1) a read of the object before (the same URL; when it lists several, the update's answer's id
 * picks one), 2) the update with the extras, 3) the read after, and when a value stuck 4) the update again with the
 * values read before, restoring the object. Escalations only (a
 * boolean set to true, a role to admin, roles and permissions extended): the scan identity's own account may be the
 * object, and nothing sent can lock it out.
 * Verdict: failed when a read-back shows a value the scan sent (and the control or the earlier read does not):
 * privileged properties 8.6, other read-only or undeclared ones 5.3. Passed when nothing stuck, or when the API refuses
 * the extras (a 4xx where the create without them succeeds). Skipped when the object cannot be read back.
 */
import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  operationClass,
  defineCheck,
  readRequestBody,
  type CheckContext,
  type Operation,
  type ProbeRequest,
  type ProbeResponse,
} from '../scanner/api.js';

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation's body when it is a JSON object (scanner/model/request-body.ts reads it by its Content-Type). */
function jsonBody(operation: Operation): JsonObject | undefined {
  const body = readRequestBody(operation.body, operation.headers);
  return body?.encoding === 'json' && isObject(body.value) ? { ...body.value } : undefined;
}

/** A JSON object from a response body. */
function parseObject(body: string): JsonObject | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const PRIVILEGED_ISSUE = 'broken_object_property_level_authorization.mass_assignment';
const READ_ONLY_ISSUE = 'broken_object_property_level_authorization.read_only_property';
const MAX_EXTRAS = 20;

/** Privileged properties and the escalating value each is given. */
const PRIVILEGED: Record<string, unknown> = {
  admin: true,
  isAdmin: true,
  is_admin: true,
  role: 'admin',
  roles: ['admin'],
  permissions: ['admin'],
  verified: true,
  balance: 1000000,
  isVerified: true,
  is_verified: true,
  superuser: true,
  is_superuser: true,
  is_staff: true,
};
const PRIVILEGED_NAME = /admin|role|permission|privilege|superuser|staff|verified|balance|credit|scope/i;
const ID_NAME = /^(id|_id|uuid|href|self|links?|_links)$|[a-z]Id$|_id$/;
const UNIQUE_NAME = /^(user(_?name)?|login|e?-?mail|email|name|handle|slug|title|display_?name)$/i;
const SELF_PATH = /\/(me|self|profile|account|whoami|current-?user)$/i;
const TOKEN_NAME = ['token', 'access_token', 'accessToken', 'jwt', 'idToken', 'id_token'];

const ok = (status: number): boolean => status >= 200 && status < 300;

interface Extra {
  name: string;
  value: unknown;
  privileged: boolean;
}

/** The value that shows a write stuck for a read-only or undeclared property, by its name and declared type. */
function readOnlyValue(name: string, type: string | undefined, format: string | undefined): unknown {
  if (type === 'boolean' || /^(is|has|can)[A-Z_]|enabled$|active$|approved$/i.test(name)) return true;
  if (type === 'integer' || type === 'number' || /count$|balance|credits?$|points$|score$|quota$|limit$/i.test(name))
    return 987654;
  if (type === 'string' && !format) return `gatehouse-${randomBytes(4).toString('hex')}`;
  if (format === 'date-time') return '2001-02-03T04:05:06Z';
  return undefined;
}

/** The extra properties to send: privileged names, declared readOnly ones, answer properties the request does not list. */
export function extrasFor(operation: Operation): Extra[] {
  // Top-level properties only: a nested one (`address.city`) is written inside its parent, not beside it.
  const declaredBody = (operation.inputs ?? []).filter((i) => i.in === 'body' && !i.pointer);
  // A generated body may carry readOnly properties (the sample has every property): those are not the client's choice.
  const sent = new Set(
    Object.keys(jsonBody(operation) ?? {}).filter((name) => !declaredBody.some((i) => i.name === name && i.readOnly)),
  );
  const writable = new Set(declaredBody.filter((i) => !i.readOnly).map((i) => i.name));
  const extras: Extra[] = [];
  const add = (name: string, value: unknown): void => {
    if (
      value === undefined ||
      sent.has(name) ||
      writable.has(name) ||
      ID_NAME.test(name) ||
      extras.some((e) => e.name === name)
    )
      return;
    extras.push({ name, value, privileged: name in PRIVILEGED || PRIVILEGED_NAME.test(name) });
  };
  for (const input of declaredBody.filter((i) => i.readOnly))
    add(input.name, PRIVILEGED[input.name] ?? readOnlyValue(input.name, input.type, input.format));
  for (const name of operation.responseProperties ?? [])
    if (declaredBody.length > 0 || sent.size > 0)
      add(name, PRIVILEGED[name] ?? readOnlyValue(name, undefined, undefined));
  for (const [name, value] of Object.entries(PRIVILEGED)) add(name, value);
  // What the description names first: the generic privileged list is a guess, the document is not.
  return extras.slice(0, MAX_EXTRAS);
}

/** The body as given with unique user-like values (a second registration of the same user would conflict). */
function uniqueBody(body: JsonObject): JsonObject {
  const tag = randomBytes(4).toString('hex');
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      if (typeof value !== 'string' || !UNIQUE_NAME.test(name)) return [name, value];
      const at = value.indexOf('@');
      // `+tag` in an e-mail's local part and `_tag` after a name pass the usual patterns ([a-z0-9_]{3,32}…).
      return [name, at > 0 ? `${value.slice(0, at)}+gh${tag}${value.slice(at)}` : `${value}_gh${tag}`];
    }),
  );
}

/** The object a read-back answer describes: itself, or the item of a list with the created id. */
function objectIn(body: string, id: string | undefined): JsonObject | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  const record = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as JsonObject) : undefined;
  const isItself = record !== undefined && ['id', '_id', 'uuid'].some((key) => key in record);
  const list = Array.isArray(parsed)
    ? parsed
    : record && !isItself
      ? Object.values(record).find(Array.isArray)
      : undefined;
  if (list && id !== undefined)
    return (list as JsonObject[]).find(
      (item) => item && typeof item === 'object' && String(item.id ?? item._id ?? item.uuid) === id,
    );
  return parseObject(body);
}

/** The URL of a path template on the operation's server, `{param}` filled with `id`. */
function urlOf(operation: Operation, template: string, id: string | undefined): string | undefined {
  const url = new URL(operation.url);
  const own = operation.path.split('/').length;
  const segments = url.pathname.split('/');
  const prefix = segments.slice(0, Math.max(1, segments.length - own + 1)).join('/');
  if (/\{[^}]+\}/.test(template) && id === undefined) return undefined;
  url.pathname = `${prefix}${template.replace(/\{[^}]+\}/, encodeURIComponent(id ?? ''))}`;
  url.search = '';
  return url.href;
}

interface Created {
  response: ProbeResponse;
  readUrl?: string;
  /** Only a URL that names the created object itself: never a collection's. */
  deleteUrl?: string;
  id?: string;
  token?: string;
}

async function create(ctx: CheckContext, extras: Extra[]): Promise<Created> {
  const operation = ctx.operation;
  // The create's own keys are fresh ones the model chose (the send gate refuses others); other names made unique.
  const fresh = ctx.model.requestAs(operation, undefined, { fresh: true });
  const chosen = Object.fromEntries(
    fresh.values
      .filter((v) => v.ref.creates && v.ref.pointer?.split('/').length === 2)
      .map((v) => [v.ref.name, v.value]),
  );
  const body = {
    ...uniqueBody(jsonBody(operation)!),
    ...chosen,
    ...Object.fromEntries(extras.map((e) => [e.name, e.value])),
  };
  const response = await ctx.http.send({ body: JSON.stringify(body) });
  if (!ok(response.status)) return { response };
  const answer = parseObject(response.body);
  const inner =
    answer && typeof answer.user === 'object' && answer.user !== null ? (answer.user as JsonObject) : answer;
  const rawId = inner?.id ?? inner?._id ?? inner?.uuid;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
  const token = TOKEN_NAME.map((n) => answer?.[n]).find((v): v is string => typeof v === 'string');
  const location = response.headers.location;
  let readUrl: string | undefined;
  let deleteUrl: string | undefined;
  const self = !location && SELF_PATH.test(operation.readBackPath ?? '');
  if (location) readUrl = deleteUrl = new URL(location, operation.url).href;
  else if (operation.readBackPath) {
    readUrl = urlOf(operation, operation.readBackPath, id);
    // The object's own path, or the new user's self path read with its own token; a list is read, never deleted.
    if (/\{[^}]+\}/.test(operation.readBackPath) || (self && token)) deleteUrl = readUrl;
  } else if (id !== undefined && operation.path === new URL(operation.url).pathname)
    readUrl = deleteUrl = `${operation.url.replace(/[?#].*$/, '').replace(/\/$/, '')}/${encodeURIComponent(id)}`;
  // The self path (GET /me) reads the new user only with the new user's token.
  if (self && !token) readUrl = deleteUrl = undefined;
  return {
    response,
    ...(readUrl ? { readUrl } : {}),
    ...(deleteUrl ? { deleteUrl } : {}),
    ...(id !== undefined ? { id } : {}),
    ...(token ? { token } : {}),
  };
}

/** Read as the new user when it was given a token, else with the read's own credential when the write has none. */
function asReader(ctx: CheckContext, created: Created): Pick<ProbeRequest, 'credential' | 'headers'> {
  if (created.token) return { credential: null, headers: { Authorization: `Bearer ${created.token}` } };
  const credential = ctx.operation.readBackCredential;
  if (!credential || credential.in !== 'header') return {};
  const scheme =
    credential.type === 'http' && credential.scheme === 'basic'
      ? 'Basic '
      : credential.type === 'apiKey'
        ? ''
        : 'Bearer ';
  return { headers: { [credential.name]: `${scheme}${credential.value}` } };
}

async function readBack(ctx: CheckContext, created: Created): Promise<JsonObject | undefined> {
  if (!created.readUrl) return undefined;
  const response = await ctx.http.send({ method: 'GET', url: created.readUrl, body: null, ...asReader(ctx, created) });
  return ok(response.status) ? objectIn(response.body, created.id) : undefined;
}

async function remove(ctx: CheckContext, created: Created): Promise<string> {
  if (!created.deleteUrl) return `${created.id ?? 'an object'} not removed (no URL names it alone): delete it by hand`;
  const response = await ctx.http
    .send({ method: 'DELETE', url: created.deleteUrl, body: null, ...asReader(ctx, created) })
    .catch(() => undefined);
  return response && ok(response.status)
    ? `removed (DELETE ${created.deleteUrl}: ${response.status})`
    : `not removed (DELETE ${created.deleteUrl}: ${response?.status ?? 'failed'}): delete it by hand`;
}

function report(ctx: CheckContext, stuck: Extra[], how: string): void {
  const describe = (list: Extra[]): string => list.map((e) => `${e.name}=${JSON.stringify(e.value)}`).join(', ');
  const privileged = stuck.filter((e) => e.privileged);
  const other = stuck.filter((e) => !e.privileged);
  if (privileged.length > 0)
    ctx.report(PRIVILEGED_ISSUE, {
      detail: `privileged properties the client set stuck: ${describe(privileged)}; ${how}`,
    });
  if (other.length > 0)
    ctx.report(READ_ONLY_ISSUE, {
      detail: `read-only or undeclared properties the client set stuck: ${describe(other)}; ${how}`,
    });
}

async function runCreate(ctx: CheckContext, extras: Extra[]): Promise<void> {
  const attack = await create(ctx, extras);
  if (!ok(attack.response.status)) {
    const control = await create(ctx, []);
    if (!ok(control.response.status))
      return ctx.skip(
        `the create itself fails (${control.response.status} without extra properties): nothing to compare`,
      );
    await remove(ctx, control);
    return; // refused with the extras, accepted without: the API rejects what it must not accept
  }
  const after = await readBack(ctx, attack);
  if (!after) {
    const cleanup = await remove(ctx, attack);
    return ctx.skip(
      `the created object cannot be read back (${attack.readUrl ?? 'no id, Location or read operation'}); ${cleanup}`,
    );
  }
  let stuck = extras.filter((e) => isDeepStrictEqual(after[e.name], e.value));
  const cleanups = [await remove(ctx, attack)];
  if (stuck.length > 0) {
    const control = await create(ctx, []);
    const plain = ok(control.response.status) ? await readBack(ctx, control) : undefined;
    if (ok(control.response.status)) cleanups.push(await remove(ctx, control));
    if (plain) stuck = stuck.filter((e) => !isDeepStrictEqual(plain[e.name], e.value));
  }
  if (stuck.length > 0)
    report(
      ctx,
      stuck,
      `read back from ${attack.readUrl}${attack.token ? ' as the new user' : ''}; objects created: ${cleanups.join('; ')}`,
    );
}

/** For an update, escalations relative to what the object holds (never a downgrade: it may be the scan's own account). */
function escalations(extras: Extra[], before: JsonObject): Extra[] {
  return extras
    .map((e) =>
      Array.isArray(e.value) && Array.isArray(before[e.name])
        ? { ...e, value: [...(before[e.name] as unknown[]), ...(e.value as unknown[])] }
        : e,
    )
    .filter((e) => !isDeepStrictEqual(before[e.name], e.value) && !(e.value === true && before[e.name] === true));
}

async function runUpdate(ctx: CheckContext, extras: Extra[]): Promise<void> {
  const read = (): Promise<ProbeResponse> => ctx.http.send({ method: 'GET', body: null });
  const first = await read();
  if (!ok(first.status)) return ctx.skip(`the object cannot be read before the update (GET ${first.status})`);
  // The read may list several objects (GET /account answering every account): the update's answer names which one.
  const single = objectIn(first.body, undefined);
  const wanted = escalations(extras, single ?? {});
  if (wanted.length === 0) return ctx.skip('the object already holds every escalating value: nothing to prove');
  const body = jsonBody(ctx.operation)!;
  // `restores`: what sticks is set back below (the send gate refuses an unrestored role change of a scan identity).
  const write = await ctx.http.send({
    body: JSON.stringify({ ...body, ...Object.fromEntries(wanted.map((e) => [e.name, e.value])) }),
    restores: true,
  });
  if (!ok(write.status)) return; // the update with the extras was refused
  const written = parseObject(write.body);
  const rawId = written?.id ?? written?._id ?? written?.uuid;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
  const before = objectIn(first.body, id);
  if (!before) return ctx.skip('the object read before the update cannot be told apart from the others its read lists');
  const second = await read();
  const after = ok(second.status) ? objectIn(second.body, id) : undefined;
  const stuck = after
    ? wanted.filter((e) => isDeepStrictEqual(after[e.name], e.value) && !isDeepStrictEqual(before[e.name], e.value))
    : [];
  if (stuck.length === 0) return;
  const restore = await ctx.http
    .send({
      body: JSON.stringify({ ...body, ...Object.fromEntries(stuck.map((e) => [e.name, before[e.name] ?? null])) }),
      restores: true,
    })
    .catch(() => undefined);
  const restored =
    restore && ok(restore.status)
      ? `restored to the values read before (${restore.status})`
      : `NOT restored (${restore?.status ?? 'failed'}): set ${stuck.map((e) => `${e.name}=${JSON.stringify(before[e.name] ?? null)}`).join(', ')} back by hand`;
  report(ctx, stuck, `read before and after the ${ctx.operation.method}; ${restored}`);
}

export default defineCheck({
  id: 'bopla.mass_assignment',
  name: 'Mass Assignment',
  issues: [
    {
      id: PRIVILEGED_ISSUE,
      name: 'A client can set privileged properties (mass assignment)',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:H/VI:H/VA:N/SC:N/SI:N/SA:N', score: 8.6 },
      classifications: {
        owasp: 'API3:2023 Broken Object Property Level Authorization',
        cwe: 'CWE-915: Improperly Controlled Modification of Dynamically-Determined Object Attributes',
      },
    },
    {
      id: READ_ONLY_ISSUE,
      name: 'A client can set read-only properties',
      url: 'https://owasp.org/API-Security/editions/2023/en/0xa3-broken-object-property-level-authorization/',
      cvss: { version: 4.0, vector: 'CVSS:4.0/AV:N/AC:L/AT:N/PR:L/UI:N/VC:N/VI:L/VA:N/SC:N/SI:N/SA:N', score: 5.3 },
      classifications: {
        owasp: 'API3:2023 Broken Object Property Level Authorization',
        cwe: 'CWE-915: Improperly Controlled Modification of Dynamically-Determined Object Attributes',
      },
    },
  ],
  scanKinds: ['curl', 'openapi'],
  // An update may raise the scan identity's own record for a moment (role: admin): no other check sends meanwhile.
  exclusive: true,
  appliesTo: (operation) => {
    if (!['POST', 'PUT', 'PATCH'].includes(operation.method.toUpperCase()))
      return 'not a create or update (POST/PUT/PATCH)';
    if (operationClass(operation) === 'destructive') return 'destructive operation: never sent at defaults';
    if (!jsonBody(operation)) return 'no JSON object body to add properties to';
    if (/log[ _-]?in|sign[ _-]?in|session|\btokens?\b/i.test(`${operation.path} ${operation.operationId ?? ''}`))
      return 'a login creates nothing to read back';
    return extrasFor(operation).length > 0 ? true : 'every candidate property is one the client may set';
  },
  async run(ctx) {
    const extras = extrasFor(ctx.operation);
    const isCreate = ctx.operation.method.toUpperCase() === 'POST';
    await (isCreate ? runCreate(ctx, extras) : runUpdate(ctx, extras));
  },
});
