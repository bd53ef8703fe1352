/**
 * The API model as checks read it (`ctx.model`, declared in scanner/api.ts): resources, links, identities and what
 * they own, each operation's resource, role and object references, and the request that sends an operation as one
 * identity on its own objects. Read-only: the engine and the send gate keep it up to date.
 */
import type { Operation, ProbeRequest } from '../api.js';
import type { CreatedObject } from './created-objects.js';
import type { FilledValue } from './fill-references.js';
import { FIRST } from './identities.js';
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
}

export function apiModelView(model: ScanModel): ApiModel {
  const { description } = model;
  return {
    resources: description.resources,
    links: description.links,
    identities: model.identities.map((i) => ({
      name: i.name,
      role: i.role,
      level: i.level,
      self: i.self,
      selfFrom: i.selfFrom,
    })),
    identity(name) {
      const i = model.identity(name);
      return i ? { name: i.name, role: i.role, level: i.level, self: i.self, selfFrom: i.selfFrom } : undefined;
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
  };
}
