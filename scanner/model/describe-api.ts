/**
 * The API as described, before any request: every operation's shape, its resource and role, its object references,
 * and the links between operations. Built once per scan from the operations (all of them, before `--shard` slices
 * them) and, for OpenAPI scans, the description; what the scan learns later (identities, objects) builds on it.
 */
import type { Operation } from '../api.js';
import { linksOf, type Link } from './links.js';
import { operationShape, type OperationShape } from './operation-shape.js';
import { matchTemplate } from './path-template.js';
import { referencesOf, type ObjectReference } from './references.js';
import { groupResources, type Resource, type ResourceOperation } from './resources.js';

export interface ApiDescription {
  readonly operations: readonly Operation[];
  readonly resources: readonly Resource[];
  readonly links: readonly Link[];
  shapeOf(operation: Operation): OperationShape;
  /** The operation's resource and role (`undefined` for an operation the description does not hold). */
  placeOf(operation: Operation): ({ resource: Resource } & ResourceOperation) | undefined;
  referencesOf(operation: Operation): readonly ObjectReference[];
  /** The described operation a request is an instance of (its method and path), if any. */
  operationFor(method: string, url: string): Operation | undefined;
  resource(name: string): Resource | undefined;
  byId(id: string): Operation | undefined;
}

export function describeApi(operations: readonly Operation[], document?: Record<string, unknown>): ApiDescription {
  const shapes = new Map(operations.map((op) => [op.id, operationShape(op, document)]));
  const placement = groupResources(operations, shapes);
  // Key path parameters declared with a component schema (`UserId`): a body field of that schema names one too.
  const schemaKeys = new Map<string, { resource: string; field: string }>();
  for (const resource of placement.resources)
    for (const key of resource.keys)
      for (const op of operations.filter((o) => o.path === key.template)) {
        const field = shapes.get(op.id)!.fields.find((f) => f.in === 'path' && f.name === key.parameter);
        if (field?.schemaName) schemaKeys.set(field.schemaName, { resource: resource.name, field: key.field });
      }
  const references = new Map(
    operations.map((op) => [op.id, referencesOf(op, shapes.get(op.id)!, placement, schemaKeys)] as const),
  );
  const links = linksOf(placement, shapes, references);
  const byId = new Map(operations.map((op) => [op.id, op]));
  const byName = new Map(placement.resources.map((r) => [r.name, r]));
  // Longest templates first: `/users/me` before `/users/{id}` when both would match a request.
  const bySpecificity = [...operations].sort(
    (a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0) || b.path.length - a.path.length,
  );
  const basePaths = new Map(operations.map((op) => [op.id, basePath(op)]));
  return {
    operations,
    resources: placement.resources,
    links,
    shapeOf: (operation) => shapes.get(operation.id) ?? operationShape(operation, document),
    placeOf(operation) {
      const placed = placement.placed.get(operation.id);
      const resource = placed ? byName.get(placed.resource) : undefined;
      return placed && resource ? { ...placed, resource } : undefined;
    },
    referencesOf: (operation) => references.get(operation.id) ?? [],
    operationFor(method, url) {
      const upper = method.toUpperCase();
      const { origin, pathname } = new URL(url);
      return bySpecificity.find(
        (op) =>
          op.method.toUpperCase() === upper &&
          new URL(op.url).origin === origin &&
          matchTemplate(op.path, pathname, basePaths.get(op.id)) !== undefined,
      );
    },
    resource: (name) => byName.get(name),
    byId: (id) => byId.get(id),
  };
}

/** The server's path the operation's template hangs below (`/api` of `https://host/api` + `/users`). */
function basePath(operation: Operation): string {
  const segments = new URL(operation.url).pathname.split('/');
  const own = operation.path.split('/').length;
  return segments.slice(0, Math.max(1, segments.length - own + 1)).join('/');
}
