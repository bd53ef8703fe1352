/**
 * The API model of one scan (docs/architecture.md §2.8): the description's resources, references and links, the scan
 * identities and what each owns, the objects the scan created. Built once per scan (`createScanModel`), prepared
 * before the first check (`prepare`: credentials obtained, identities learned, the operations filled with the first
 * identity's own values), read by every check through `ctx.model` and by the send gate (`refuse`).
 */
import type { Operation, ProbeRequest, ProbeResponse } from '../api.js';
import { isJwt } from '../compact-jwt.js';
import { startProviders } from './credentials/start-providers.js';
import type { WireRequest } from '../http.js';
import { cleanUpCreated } from './clean-up.js';
import { createCreatedObjects, type CreatedObjects } from './created-objects.js';
import { createServerErrorLog, type ServerErrorLog } from './server-errors.js';
import { describeApi, type ApiDescription } from './describe-api.js';
import { fillReferences, freshValue, type Filled } from './fill-references.js';
import { createIdentity, FIRST, OTHER, type ScanIdentity } from './identities.js';
import type { IdentitySpec } from './identity-spec.js';
import { learnIdentities } from './learn-identities.js';
import { createOwnership, type Ownership } from './ownership.js';
import type { ObjectReference } from './references.js';
import { namedValues, refuseWrite } from './write-rule.js';

export interface ScanModelInput {
  /** Every operation of the scan (before `--shard` slices them), for resources and links. */
  operations: readonly Operation[];
  /** The OpenAPI description, when there is one. */
  document?: Record<string, unknown>;
  /** Curl scans: the request is the user's own, its values theirs (the first identity's). */
  given?: boolean;
  identities: readonly IdentitySpec[];
}

/**
 * Sends one request of the model's own (learning reads, sign-ins) through the scan's HTTP client and gate: as
 * `identity` when given, else with the probe's credential fields alone. Transport errors reject.
 */
export type ModelSend = (operation: Operation, probe: ProbeRequest, identity?: ScanIdentity) => Promise<ProbeResponse>;

export interface ScanModel {
  /** Curl scans: the operations are the user's own requests. */
  readonly given: boolean;
  readonly description: ApiDescription;
  readonly identities: readonly ScanIdentity[];
  identity(name: string): ScanIdentity | undefined;
  readonly ownership: Ownership;
  readonly created: CreatedObjects;
  /**
   * Learns who the identities are and what they own, then returns `operations` filled with the first identity's own
   * values (what a check sends "as given").
   */
  prepare(operations: readonly Operation[], send: ModelSend): Promise<Operation[]>;
  /** `operation` sent as `identity` on its own objects; `fresh` chooses new keys for a create. */
  fill(operation: Operation, identity: string, options?: { fresh?: boolean; preferCreated?: boolean }): Filled;
  /** Why the send gate must refuse this request (a write naming an object no scan identity owns), or undefined. */
  refuse(request: WireRequest): string | undefined;
  /** Learns from an answer the wire gave (objects a create made, and deleted). */
  observe(request: WireRequest & { identity?: string; checkId?: string }, response: ProbeResponse): void;
  /** Requests answered 5xx or not at all, with the inputs that caused them (server-errors.ts). */
  readonly serverErrors: ServerErrorLog;
  /** After the checks: deletes what the scan created and is still there, as its creator (clean-up.ts). */
  cleanUp(send: ModelSend): Promise<void>;
  /** Every credential value an identity held, for redaction. */
  secrets(): string[];
}

/** The identities a scan runs with: the supplied credential as `first`, `--as-other` as `other`, then the rest. */
export function identitySpecs(
  given: readonly IdentitySpec[] | undefined,
  asOther: { name: string; value: string } | undefined,
): IdentitySpec[] {
  const specs = [...(given ?? [])];
  if (!specs.some((s) => s.name === FIRST)) specs.unshift({ name: FIRST, credential: { kind: 'given' } });
  if (asOther && !specs.some((s) => s.name === OTHER))
    specs.splice(1, 0, { name: OTHER, credential: { kind: 'header', header: asOther.name, value: asOther.value } });
  return specs;
}

export function createScanModel(input: ScanModelInput): ScanModel {
  const description = describeApi(input.operations, input.document);
  const ownership = createOwnership();
  const created = createCreatedObjects(description, ownership);
  const identities = input.identities.map((spec) => createIdentity(spec));
  const byName = new Map(identities.map((i) => [i.name, i]));
  const chosen = new Set<string>();
  const first = byName.get(FIRST)!;
  const choose =
    (operation: Operation) =>
    (ref: ObjectReference): string => {
      const field = description
        .shapeOf(operation)
        .fields.find((f) => f.in === ref.in && (f.pointer ?? f.name) === (ref.pointer ?? ref.name));
      const value = freshValue(ref, field?.type, field?.format);
      chosen.add(value);
      return value;
    };
  // Curl scans: the user typed the request with the first identity's credential; its values are that identity's.
  if (input.given) for (const operation of input.operations) registerGiven(description, ownership, operation);
  const model: ScanModel = {
    given: input.given === true,
    description,
    identities,
    identity: (name) => byName.get(name),
    ownership,
    created,
    async prepare(operations, send) {
      await startProviders(description, identities, send);
      const signedIn = first.provider ? withToken(operations, first.provider.current()!) : [...operations];
      if (input.given) return signedIn;
      await learnIdentities({
        description,
        identities,
        ownership,
        send: (operation, identity, request) => send(operation, request, identity).catch(() => undefined),
        tokenOf: (identity) => tokenOf(identity, signedIn),
      });
      return signedIn.map((operation) => withFirstValues(model, operation));
    },
    fill(operation, identityName, options = {}) {
      const identity = byName.get(identityName) ?? first;
      const refs = description.referencesOf(operation);
      // A create's keys: the operation as prepared already carries the first's fresh ones unless asked for new.
      const wanted = options.fresh ? refs : refs.filter((r) => !r.creates || identityName !== FIRST);
      return fillReferences(operation, wanted, identity, ownership, {
        choose: choose(operation),
        ...(options.preferCreated ? { preferCreated: true } : {}),
      });
    },
    refuse(request) {
      return refuseWrite({ description, ownership, chosen }, request);
    },
    observe(request, response) {
      created.observe(request, response);
      if (request.method.toUpperCase() === 'DELETE' && response.status >= 200 && response.status < 300) {
        const object = created.byUrl(request.url);
        if (object) object.state = 'deleted';
      }
    },
    serverErrors: createServerErrorLog(),
    cleanUp: (send) => cleanUpCreated(description, created.all(), identities, send),
    secrets: () => identities.flatMap((i) => i.secrets()),
  };
  return model;
}

/** The value a JWT-reading step can decode for an identity: a bearer token it sends. */
function tokenOf(identity: ScanIdentity, operations: readonly Operation[]): string | undefined {
  const credential = identity.spec.credential;
  if (identity.provider) return identity.provider.current();
  if (credential.kind === 'header') return /^\S+\s+(\S+)$/.exec(credential.value)?.[1] ?? credential.value;
  return operations.find((op) => op.credential)?.credential?.value;
}

/** The operation with its references set to the first identity's own values (and a create's keys to fresh ones). */
function withFirstValues(model: ScanModel, operation: Operation): Operation {
  const filled = model.fill(operation, FIRST, { fresh: true });
  if (filled.values.length === 0) return operation;
  const objectIds = { ...(operation.objectIds ?? {}) };
  const pathParameters = (operation.pathParameters ?? []).map((p) => {
    const value = filled.values.find((v) => v.ref.in === 'path' && v.ref.name === p.name);
    if (!value) return p;
    objectIds[p.name] = { value: value.value, from: value.from };
    return { ...p, value: value.value };
  });
  return {
    ...operation,
    url: filled.url,
    ...(filled.body !== undefined ? { body: filled.body } : {}),
    ...(pathParameters.length > 0 ? { pathParameters } : {}),
    ...(Object.keys(objectIds).length > 0 ? { objectIds } : {}),
  };
}

/** Curl scans: every object the user's own request names is the first identity's. */
function registerGiven(description: ApiDescription, ownership: Ownership, operation: Operation): void {
  const named = namedValues(description, {
    method: operation.method,
    url: operation.url,
    body: operation.body,
    operation,
  });
  for (const { ref, value } of named?.values ?? [])
    ownership.add({
      resource: ref.resource,
      field: ref.field,
      value,
      owner: FIRST,
      source: 'given',
      from: 'the scanned request',
    });
}

/** The operations with the first identity's token as their credential (the scan signed it in itself). */
function withToken(operations: readonly Operation[], token: string): Operation[] {
  const format = isJwt(token) ? ('jwt' as const) : ('opaque' as const);
  return operations.map((operation) => ({
    ...operation,
    ...(operation.credential ? { credential: { ...operation.credential, value: token, format } } : {}),
    ...(operation.readBackCredential
      ? { readBackCredential: { ...operation.readBackCredential, value: token, format } }
      : {}),
  }));
}
