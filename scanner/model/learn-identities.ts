/**
 * What each scan identity is and owns, learned once before the checks (docs/architecture.md §2.8): its token's claims
 * and what its sign-in answered, one read of a me-like operation (`GET /me`, `/account`), then one read of each list
 * it can fill (`GET /orders`, `GET /users/{its id}/orders`; nested lists once their parent's ids are known). A listed
 * object is the identity's own only when the list is scoped to it (a self path, or a path naming its own record) or
 * the object names it as owner — a catalogue or a leaky list proves nothing about ownership.
 */
import type { Operation, ProbeResponse } from '../api.js';
import { parseUnverified } from '../compact-jwt.js';
import { answerItems, answerObject, identifyingFields, ownerValues, scalar } from './answer-objects.js';
import type { ApiDescription } from './describe-api.js';
import { ALIASES, fillReferences } from './fill-references.js';
import type { ScanIdentity } from './identities.js';
import { parseJson } from './json-pointer.js';
import type { Ownership } from './ownership.js';
import { USER_RESOURCES } from './resource-names.js';

const MAX_ROUNDS = 3;

type LearnSend = (
  operation: Operation,
  identity: ScanIdentity,
  request: { url: string; body?: string },
) => Promise<ProbeResponse | undefined>;

export interface LearnInput {
  description: ApiDescription;
  identities: readonly ScanIdentity[];
  ownership: Ownership;
  send: LearnSend;
  /** The token an identity sends, when the scan can read it (its claims say who it is). */
  tokenOf(identity: ScanIdentity): string | undefined;
}

const CLAIMS: [string, string][] = [
  ['sub', 'sub'],
  ['preferred_username', 'username'],
  ['username', 'username'],
  ['email', 'email'],
  ['user_id', 'id'],
  ['userId', 'id'],
  ['uid', 'id'],
];

const ok = (response: ProbeResponse | undefined): response is ProbeResponse =>
  response !== undefined && response.status >= 200 && response.status < 300;

/** The name the API gives its users (`user`, `account`…), for ownership entries of identities' own records. */
function userResourceOf(description: ApiDescription): string {
  return description.resources.find((r) => USER_RESOURCES.test(r.name))?.name ?? 'user';
}

function learnSelf(identity: ScanIdentity, record: Record<string, unknown>, from: string): void {
  for (const [field, value] of identifyingFields(record)) identity.learn(field, value, from);
}

/**
 * A me-like read that answers a list (a leak, or every account the caller manages): the one item that holds a value
 * the identity is already known by (the user name it signs in with), else none.
 */
function ownItem(
  identity: ScanIdentity,
  items: Record<string, unknown>[] | undefined,
): Record<string, unknown> | undefined {
  const known = new Set(Object.values(identity.self));
  if (known.size === 0 || !items) return undefined;
  const mine = items.filter((item) => identifyingFields(item).some(([, value]) => known.has(value)));
  return mine.length === 1 ? mine[0] : undefined;
}

function recordOwnSelf(input: LearnInput, identity: ScanIdentity): void {
  const users = userResourceOf(input.description);
  for (const [field, value] of Object.entries(identity.self)) {
    const from = identity.selfFrom[field];
    input.ownership.add({ resource: users, field, value, owner: identity.name, source: 'self', from });
    // Under its usual name too: `preferred_username` is the identity's `username`.
    for (const [canonical, aliases] of Object.entries(ALIASES))
      if (canonical !== field && aliases.includes(field))
        input.ownership.add({ resource: users, field: canonical, value, owner: identity.name, source: 'self', from });
  }
}

export async function learnIdentities(input: LearnInput): Promise<void> {
  const { description, identities, ownership } = input;
  // A password the scan signs an identity in with is one a password field may keep (a change to nothing).
  for (const identity of identities) {
    const password = identity.password();
    if (password !== undefined)
      ownership.add({
        resource: userResourceOf(description),
        field: 'password',
        value: password,
        owner: identity.name,
        source: 'self',
        from: 'its sign-in',
        secret: true,
      });
  }
  // What the identity's credential says about it: a JWT's claims, a sign-in's answer.
  for (const identity of identities) {
    for (const [field, value] of Object.entries(identity.provider?.learned() ?? {}))
      identity.learn(field, value, identity.provider!.describe);
    const token = input.tokenOf(identity);
    const parsed = token ? parseUnverified(token) : undefined;
    if (parsed?.ok && parsed.jwt.claims)
      for (const [claim, field] of CLAIMS) identity.learn(field, parsed.jwt.claims[claim], 'its token claims');
  }
  // One me-like read each: the shortest self path that reads (GET /me before GET /me/settings).
  const selfReads = description.operations
    .filter(
      (op) =>
        op.method.toUpperCase() === 'GET' && description.placeOf(op)?.self && description.placeOf(op)?.role === 'read',
    )
    .sort((a, b) => a.path.length - b.path.length);
  const me = selfReads[0];
  if (me)
    for (const identity of identities) {
      const response = await input.send(me, identity, { url: me.url });
      const answer = ok(response) ? parseJson(response.body) : undefined;
      const record = answerObject(answer) ?? ownItem(identity, answerItems(answer));
      if (record) learnSelf(identity, record, me.id);
    }
  await confirmKeys(input);
  for (const identity of identities) recordOwnSelf(input, identity);

  // Lists, as each identity, of the resources some operation names an object of (nothing else needs their ids);
  // nested ones once the ids their path needs are known.
  const named = new Set(
    description.operations.flatMap((op) =>
      description
        .referencesOf(op)
        .filter((r) => !r.creates)
        .map((r) => r.resource),
    ),
  );
  const allLists = description.operations.filter(
    (op) => op.method.toUpperCase() === 'GET' && description.placeOf(op)?.role === 'list',
  );
  // A wanted list's own path names a parent (`/teams/{teamId}/projects`): the parent's list is wanted too.
  for (let size = -1; size !== named.size;) {
    size = named.size;
    for (const op of allLists)
      if (named.has(description.placeOf(op)!.resource.name))
        for (const ref of description.referencesOf(op)) if (ref.in === 'path') named.add(ref.resource);
  }
  const lists = allLists
    .filter((op) => named.has(description.placeOf(op)!.resource.name))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length);
  const done = new Set<string>();
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    let progressed = false;
    for (const list of lists) {
      const answers: ListAnswer[] = [];
      for (const identity of identities) {
        const key = `${identity.name} ${list.id}`;
        if (done.has(key)) continue;
        const filled = fillReferences(list, description.referencesOf(list), identity, ownership, {
          choose: () => {
            throw new Error('a list creates nothing');
          },
        });
        if (filled.missing.some((ref) => ref.in === 'path')) continue;
        done.add(key);
        progressed = true;
        const response = await input.send(list, identity, { url: filled.url });
        const items = ok(response) ? answerItems(parseJson(response.body)) : undefined;
        // Scoped to the identity: a self path (`/me/orders`), or a path naming its own record (`/users/{its id}/orders`).
        const scoped =
          description.placeOf(list)!.self === true ||
          filled.values.some((v) => v.ref.in === 'path' && v.from.startsWith('its own record'));
        answers.push({ identity, items, scoped });
      }
      recordListed(input, list, answers);
    }
    if (!progressed) break;
  }
}

interface ListAnswer {
  identity: ScanIdentity;
  /** The listed objects, or undefined when the identity got no list (an error, not JSON). */
  items?: Record<string, unknown>[];
  scoped: boolean;
}

/**
 * The listed objects each identity owns: all of them when the list is scoped to it, those that name it as owner, its
 * own record in a list of users, and — when two identities read the same list — those only its answer holds (each
 * identity sees its own objects: the list is per identity, though it names no owner).
 */
function recordListed(input: LearnInput, list: Operation, answers: readonly ListAnswer[]): void {
  const place = input.description.placeOf(list)!;
  const keyFields = ['id', '_id', 'uuid', ...place.resource.keys.map((k) => k.field)];
  const keyOf = (item: Record<string, unknown>): string | undefined =>
    keyFields.map((f) => scalar(item[f])).find((v) => v !== undefined);
  const listedBy = (answer: ListAnswer): Set<string> =>
    new Set((answer.items ?? []).map(keyOf).filter((k): k is string => k !== undefined));
  const compared = answers.filter((a) => a.items !== undefined);
  for (const answer of compared) {
    const own = new Set(Object.values(answer.identity.self));
    const others = compared.filter((a) => a !== answer).map(listedBy);
    for (const item of answer.items!) {
      const key = keyOf(item);
      const selfRecord =
        USER_RESOURCES.test(place.resource.name) &&
        ['id', '_id', 'uuid', 'username'].some((f) => scalar(item[f]) !== undefined && own.has(scalar(item[f])!));
      const namesOwner = ownerValues(item).some((v) => own.has(v));
      const onlyTheirs = others.length > 0 && key !== undefined && others.every((keys) => !keys.has(key));
      if (!answer.scoped && !selfRecord && !namesOwner && !onlyTheirs) continue;
      const why = answer.scoped
        ? 'its own list'
        : selfRecord
          ? 'its own record'
          : namesOwner
            ? 'its own list (the object names it as owner)'
            : "its own list (no other identity's list holds it)";
      for (const field of new Set(keyFields)) {
        const value = scalar(item[field]);
        if (value !== undefined)
          input.ownership.add({
            resource: place.resource.name,
            field,
            value,
            owner: answer.identity.name,
            source: 'list',
            from: `${list.id}, ${why}`,
          });
      }
    }
  }
}

/**
 * A user key the API's paths name users by (`{username}`), when an identity only knows a claim that may be it (a
 * token's `sub`): read the user by that value as the identity itself, and take it only when the answer holds the
 * same value in that field. One read per identity, only when no me-like read told it.
 */
async function confirmKeys(input: LearnInput): Promise<void> {
  const users = input.description.resources.find((r) => USER_RESOURCES.test(r.name));
  for (const key of users?.keys ?? []) {
    const read = input.description.operations.find(
      (op) => op.path === key.template && op.method.toUpperCase() === 'GET',
    );
    if (!read) continue;
    for (const identity of input.identities) {
      if (identity.self[key.field] !== undefined) continue;
      const candidate = [identity.self.preferred_username, identity.self.username, identity.self.sub].find(
        (value) => value !== undefined,
      );
      if (candidate === undefined) continue;
      const url = new URL(read.url);
      const values: Record<string, string> = { [key.parameter]: candidate };
      const filled = input.description.referencesOf(read).every((r) => r.in !== 'path' || values[r.name] !== undefined);
      if (!filled) continue;
      url.pathname = url.pathname.replace(/[^/]+$/, encodeURIComponent(candidate));
      const response = await input.send(read, identity, { url: url.href });
      const record = ok(response) ? answerObject(parseJson(response.body)) : undefined;
      if (record && scalar(record[key.field]) === candidate)
        identity.learn(key.field, candidate, `its token's subject, read back with ${read.id}`);
    }
  }
}
