/**
 * The API model as checks read it (`ctx.model`, declared in scanner/api.ts): resources, links, identities and what
 * they own, each operation's resource, role and object references, and the request that sends an operation as one
 * identity on its own objects. Read-only: the engine and the send gate keep it up to date.
 */
import type { HttpClient, Operation, ProbeRequest, ProbeResponse } from '../api.js';
import type { JsonObject } from './answer-objects.js';
import { tokenIn } from './credentials/token-in-answer.js';
import { parseJson } from './json-pointer.js';
import { oraclesFor, readerOf, targetOf, type ObjectTarget, type Oracle } from './oracles.js';
import type { CreatedObject } from './created-objects.js';
import type { FilledValue } from './fill-references.js';
import { FIRST, type ScanIdentity } from './identities.js';
import type { Link } from './links.js';
import type { OwnedValue } from './ownership.js';
import type { ObjectReference } from './references.js';
import type { Resource, ResourceOperation } from './resources.js';
import type { ScanModel } from './scan-model.js';

export interface ModelIdentity {
  name: string;
  role: string;
  /** 0 anonymous, 1 ordinary user, 2 staff, 3 administrator. */
  level: number;
  /** Fields of its own record (`id`, `username`, `email`…). */
  self: Readonly<Record<string, string>>;
  /** Where each field of `self` was learned (`GET /api/account`, `its token claims`). */
  selfFrom: Readonly<Record<string, string>>;
  /**
   * The scan signs it in itself with a password it knows (`--identity NAME=login:…`, a password grant): a check may
   * change that password, because the scan can set it back and sign in again.
   */
  signsIn: boolean;
}

export type PlacedOperation = { resource: Resource } & ResourceOperation;

export interface ModelRequest {
  /** The probe that sends the operation as the identity on its own objects (`url`, `body`, `as`). */
  probe: ProbeRequest & { url: string; as: string };
  /** Each reference and the value that fills it, with where the value comes from. */
  values: readonly FilledValue[];
  /** References the identity has no value for: sending it would name someone else's object (the gate refuses writes). */
  missing: readonly ObjectReference[];
  /** A password or e-mail address it has no own value for, left out of the body. */
  dropped: readonly ObjectReference[];
}

export interface ApiModel {
  /**
   * The operations are requests the user wrote (a curl command): their values are the first identity's by the user's
   * word, and there is no description to find other operations in.
   */
  readonly given: boolean;
  readonly resources: readonly Resource[];
  readonly links: readonly Link[];
  readonly identities: readonly ModelIdentity[];
  identity(name: string): ModelIdentity | undefined;
  /** Every described operation (the whole description, also under `--shard`), as the description gives it. */
  readonly operations: readonly Operation[];
  placeOf(operation: Operation): PlacedOperation | undefined;
  references(operation: Operation): readonly ObjectReference[];
  /** The resource's operations in a role (`read`, `list`, `delete`…). */
  operationsOf(resource: string, role?: ResourceOperation['role']): Operation[];
  /**
   * `operation` as `identity` on that identity's own objects (`first` by default). `fresh: true` chooses new keys for
   * a create (a second sign-up of the same user would only conflict).
   */
  requestAs(
    operation: Operation,
    identity?: string,
    options?: { fresh?: boolean; preferCreated?: boolean },
  ): ModelRequest;
  /** Who owns the object whose `field` is `value` (an identity's, or one the scan created), if any scan identity does. */
  ownerOf(resource: string, field: string, value: string): OwnedValue | undefined;
  /** Objects the scan created so far, with their creator. */
  created(): readonly Omit<CreatedObject, 'sent'>[];
  /**
   * The object `operation` acts on when sent as `request` by `identity`: its resource and keys (from the request's
   * references, or the identity's own record for a self path), and whose it is when a scan identity owns it.
   */
  targetOf(operation: Operation, request: { url: string; body?: string }, identity?: string): ObjectTarget | undefined;
  /** The reads that show `target`, best first (the write's own path, its parent's read, a linked read, /me, the list). */
  oracles(target: ObjectTarget, write?: Operation, reader?: string): Oracle[];
  /**
   * Reads `target` back as `as` (its owner by default) through the first oracle whose answer shows it; `tried` says
   * what each oracle answered when none did.
   */
  readBack(http: HttpClient, target: ObjectTarget, options?: { write?: Operation; as?: string }): Promise<ReadBack>;
  /**
   * Signs in through the description's sign-in operation with these fields (the oracle of a changed credential):
   * its answer and the token in it, or undefined when the description has no sign-in.
   */
  signIn(
    http: HttpClient,
    fields: Record<string, string>,
  ): Promise<{ response: ProbeResponse; token?: string } | undefined>;
  /**
   * Signs `identity` in the way the scan does (its login fields), with `overrides` (a changed password): the oracle
   * of a credential change. Undefined when the scan does not sign it in through the description.
   */
  signInAs(
    http: HttpClient,
    identity: string,
    overrides?: Record<string, string>,
  ): Promise<{ response: ProbeResponse; token?: string } | undefined>;
  /** Obtains a new credential for `identity` (after a check changed and restored its password); whether it could. */
  renew(identity: string, reason: string): Promise<boolean>;
}

export interface ReadBack {
  oracle?: Oracle;
  response?: ProbeResponse;
  /** The object the oracle's answer shows. */
  object?: JsonObject;
  /** Each oracle tried and its answer's status (what a skip reason says when none showed the object). */
  tried: { oracle: Oracle; status: number; response: ProbeResponse }[];
}

export function apiModelView(model: ScanModel): ApiModel {
  const { description } = model;
  return {
    given: model.given,
    resources: description.resources,
    links: description.links,
    identities: model.identities.map(viewOf),
    identity(name) {
      const i = model.identity(name);
      return i ? viewOf(i) : undefined;
    },
    operations: description.operations,
    placeOf: (operation) => description.placeOf(operation),
    references: (operation) => description.referencesOf(operation),
    operationsOf(resource, role) {
      const found = description.resource(resource);
      if (!found) return [];
      return found.operations
        .filter((o) => role === undefined || o.role === role)
        .map((o) => description.byId(o.operationId))
        .filter((o): o is Operation => o !== undefined);
    },
    requestAs(operation, identity = FIRST, options = {}) {
      const filled = model.fill(operation, identity, options);
      return {
        probe: { url: filled.url, ...(filled.body !== undefined ? { body: filled.body } : {}), as: identity },
        values: filled.values,
        missing: filled.missing,
        dropped: filled.dropped,
      };
    },
    ownerOf: (resource, field, value) => model.ownership.ownerOf(resource, field, value),
    created: () => model.created.all().map(({ sent: _sent, ...rest }) => rest),
    targetOf: (operation, request, identity = FIRST) =>
      targetOf(
        description,
        operation,
        request,
        model.identity(identity),
        (resource, field, value) => model.ownership.ownerOf(resource, field, value)?.owner,
      ),
    oracles: (target, write, reader) =>
      oraclesFor(description, target, write, model.identity(reader ?? readerOf(target))),
    async readBack(http, target, options = {}) {
      const as = options.as ?? readerOf(target);
      const tried: ReadBack['tried'] = [];
      for (const oracle of oraclesFor(description, target, options.write, model.identity(as))) {
        const response = await http.send({ method: 'GET', url: oracle.url, body: null, as });
        const object = response.status >= 200 && response.status < 300 ? oracle.pick(response.body) : undefined;
        if (object) return { oracle, response, object, tried };
        tried.push({ oracle, status: response.status, response });
      }
      return { tried };
    },
    async signInAs(http, identity, overrides = {}) {
      const spec = model.identity(identity)?.spec.credential;
      if (spec?.kind !== 'login') return undefined;
      return this.signIn(http, { ...spec.fields, ...overrides });
    },
    renew: async (identity, reason) => (await model.identity(identity)?.provider?.renew(reason)) ?? false,
    async signIn(http, fields) {
      const operation = description.operations.find((op) => description.placeOf(op)?.role === 'sign-in');
      if (!operation) return undefined;
      const sample = parseJson(operation.body);
      const base = sample && typeof sample === 'object' && !Array.isArray(sample) ? sample : {};
      const form = description.shapeOf(operation).requestMedia?.includes('x-www-form-urlencoded') === true;
      const response = await http.send({
        method: operation.method,
        url: operation.url,
        body: form ? new URLSearchParams(fields).toString() : JSON.stringify({ ...base, ...fields }),
        headers: { 'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
        credential: null,
      });
      const token = response.status < 300 ? tokenIn(parseJson(response.body))?.token : undefined;
      return { response, ...(token ? { token } : {}) };
    },
  };
}

function viewOf(identity: ScanIdentity): ModelIdentity {
  return {
    name: identity.name,
    role: identity.role,
    level: identity.level,
    self: identity.self,
    selfFrom: identity.selfFrom,
    signsIn: identity.password() !== undefined,
  };
}
