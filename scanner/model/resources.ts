/**
 * Resources: operations grouped by the kind of object they act on, from their path shape (`/orders`, `/orders/{id}`,
 * `/users/{userId}/orders`), with each operation's role — list, create, read, update, delete, an action on an object or
 * a collection (`…/{id}/password`, `/users/role`: it belongs to its parent's resource), a read or update of the
 * caller's own record (`/me`), a sign-up (it creates a user) or a sign-in. Schema names and answer fields join
 * resources the paths alone would keep apart (`/account` answers the same `Account` a sign-up creates).
 */
import type { Operation } from '../api.js';
import type { OperationShape } from './operation-shape.js';
import { segmentsOf, type TemplateSegment } from './path-template.js';
import { isPrefixSegment, referencedKey, resourceName, singular, USER_RESOURCES } from './resource-names.js';
import { isSelfSegment, isSignIn, isSignUp } from './self-paths.js';

export type OperationRole = 'list' | 'create' | 'read' | 'update' | 'delete' | 'action' | 'sign-in' | 'sign-up';

export interface ResourceOperation {
  operationId: string;
  role: OperationRole;
  /** Acts on the caller's own record or collection (`/me`, `/me/orders`): the identity sending it picks the object. */
  self?: boolean;
  /** An action's name (`password` of `PUT /users/{id}/password`, `role` of `POST /users/role`). */
  action?: string;
  /** Acts on a collection (no path parameter names its object): an action's object is named in the body, if at all. */
  onCollection?: boolean;
}

export interface ResourceKey {
  /** The item template (`/users/{username}`) and its last path parameter, which names one object. */
  template: string;
  parameter: string;
  /** The field of the objects that holds that value (`username`, `id`). */
  field: string;
}

export interface Resource {
  /** The singular of its collection segment (`user`, `order`, `order_item`). */
  name: string;
  /** Collection templates (`/users`, `/teams/{teamId}/users`) and item templates (`/users/{id}`). */
  collections: string[];
  items: string[];
  keys: ResourceKey[];
  /** Fields its objects have, from the answers of its operations. */
  fields: string[];
  /** Component schema names of its objects (answers and create bodies). */
  schemas: string[];
  operations: ResourceOperation[];
}

interface Placed {
  operation: Operation;
  resource: string;
  role: OperationRole;
  self?: boolean;
  action?: string;
  onCollection?: boolean;
  collection?: string;
  item?: { template: string; parameter: string };
}

/** The index of the static segment naming the collection a position's object belongs to (skipping `api`, `v1`). */
function collectionBefore(segments: TemplateSegment[], index: number): number {
  for (let i = index - 1; i >= 0; i -= 1) {
    const segment = segments[i];
    if (segment.parameter !== undefined) return -1;
    if (!isPrefixSegment(segment.text)) return i;
  }
  return -1;
}

const templateOf = (segments: TemplateSegment[], end: number): string =>
  `/${segments
    .slice(0, end + 1)
    .map((s) => s.text)
    .join('/')}`;

/** Where one operation sits: its resource and role, from its path (and, for sub-paths, the other paths). */
function place(
  operation: Operation,
  shape: OperationShape,
  templates: Set<string>,
  collectionSegments: Set<string>,
): Placed {
  const method = operation.method.toUpperCase();
  const segments = segmentsOf(operation.path);
  const last = segments.length - 1;
  const base = { operation };
  if (isSignUp(operation)) return { ...base, resource: 'user', role: 'sign-up' };
  if (isSignIn(operation)) return { ...base, resource: 'session', role: 'sign-in' };

  const byMethod = (onItem: boolean): OperationRole => {
    if (method === 'DELETE') return 'delete';
    if (method === 'PUT' || method === 'PATCH') return onItem ? 'update' : 'action';
    if (method === 'POST') return onItem ? 'action' : 'create';
    return onItem ? 'read' : 'list';
  };

  // The caller's own record or collection: `/me`, `/users/me`, `/me/orders`.
  const selfAt = segments.findIndex((s) => s.parameter === undefined && isSelfSegment(s.text));
  if (selfAt >= 0 && !segments.slice(selfAt + 1).some((s) => s.parameter !== undefined)) {
    const after = segments.slice(selfAt + 1).filter((s) => !isPrefixSegment(s.text));
    if (after.length === 0) {
      const role: OperationRole =
        method === 'DELETE'
          ? 'delete'
          : method === 'GET' || method === 'HEAD'
            ? 'read'
            : method === 'POST'
              ? 'action'
              : 'update';
      return { ...base, resource: 'user', role, self: true };
    }
    const nested = after[after.length - 1].text;
    // `/me/password` is an action on the caller; `/me/orders` the caller's orders.
    if (!shape.responseIsList && singular(nested) === nested.toLowerCase() && method !== 'GET')
      return { ...base, resource: 'user', role: 'action', self: true, action: nested.toLowerCase() };
    return {
      ...base,
      resource: resourceName(nested),
      role: byMethod(false),
      self: true,
      collection: operation.path,
    };
  }

  const lastSegment = segments[last];
  if (lastSegment?.parameter !== undefined) {
    const at = collectionBefore(segments, last);
    if (at < 0)
      return {
        ...base,
        resource: 'root',
        role: byMethod(true),
        item: { template: operation.path, parameter: lastSegment.parameter },
      };
    return {
      ...base,
      resource: resourceName(segments[at].text),
      role: byMethod(true),
      // `/users/v1/{username}` is an item of `/users/v1`: everything before its parameter.
      collection: templateOf(segments, last - 1),
      item: { template: operation.path, parameter: lastSegment.parameter },
    };
  }
  if (!lastSegment) return { ...base, resource: 'root', role: byMethod(false) };
  // `/users/v1`: the version names nothing; the collection is the segment before it.
  if (isPrefixSegment(lastSegment.text)) {
    const at = collectionBefore(segments, last);
    if (at < 0) return { ...base, resource: 'root', role: byMethod(false) };
    return { ...base, resource: resourceName(segments[at].text), role: byMethod(false), collection: operation.path };
  }

  const name = lastSegment.text;
  const isCollection =
    [...templates].some((t) => t.startsWith(`${operation.path}/{`)) ||
    shape.responseIsList ||
    (collectionSegments.has(name) && segments[last - 1]?.parameter === undefined);
  const parentParameter = segments
    .slice(0, last)
    .reverse()
    .find((s) => s.parameter !== undefined);
  const previous = segments[last - 1];
  // `…/{id}/password`: an action on the object the parameter names, unless it is a collection of its own.
  if (previous?.parameter !== undefined && !isCollection) {
    const at = collectionBefore(segments, last - 1);
    return {
      ...base,
      resource: at >= 0 ? resourceName(segments[at].text) : 'root',
      role: method === 'DELETE' ? 'delete' : 'action',
      action: name.toLowerCase(),
      item: { template: templateOf(segments, last - 1), parameter: previous.parameter },
    };
  }
  // `/users/role`: an action on a collection that exists on its own (its object named in the body, if at all).
  const at = collectionBefore(segments, last);
  const knownCollection = (text: string): boolean =>
    collectionSegments.has(text) || USER_RESOURCES.test(resourceName(text));
  if (!isCollection && at >= 0 && knownCollection(segments[at].text) && !parentParameter) {
    return {
      ...base,
      resource: resourceName(segments[at].text),
      role: method === 'DELETE' ? 'delete' : method === 'GET' ? 'list' : 'action',
      action: name.toLowerCase(),
      onCollection: true,
      collection: templateOf(segments, at),
    };
  }
  // A lone singular segment that is an action on the API (`/api/checkout`) keeps its own name as a resource.
  return { ...base, resource: resourceName(name), role: byMethod(false), collection: operation.path };
}

/** Which field of the objects a key parameter names: the field of that name, else `id` for `{id}`/`{orderId}`. */
function keyField(resource: string, parameter: string, fields: Set<string>): string {
  if (fields.has(parameter)) return parameter;
  const referenced = referencedKey(parameter);
  if (/^(id|_id|uuid|guid)$/i.test(parameter)) return fields.has('_id') && !fields.has('id') ? '_id' : 'id';
  if (referenced && (referenced.resource === resource || referenced.resource === singular(resource)))
    return fields.has(referenced.field) ? referenced.field : 'id';
  // `{item_id}` of a menu whose objects have an `id`: the collection's own id, whatever the parameter calls it.
  if (referenced?.field === 'id' && fields.has('id')) return 'id';
  // `{book_title}` of books, whose objects have `title`.
  const stripped = parameter.replace(new RegExp(`^${resource}[_-]?`, 'i'), '');
  const lowered = stripped.charAt(0).toLowerCase() + stripped.slice(1);
  if (fields.has(lowered)) return lowered;
  return parameter;
}

export interface Placement {
  resources: Resource[];
  /** Each operation's resource and role, by operation id. */
  placed: Map<string, { resource: string } & ResourceOperation>;
}

/** Groups the operations into resources. `shapes` are the operations' shapes, by operation id. */
export function groupResources(
  operations: readonly Operation[],
  shapes: ReadonlyMap<string, OperationShape>,
): Placement {
  const templates = new Set(operations.map((o) => o.path));
  // Static segments that name a collection somewhere: followed by a parameter, or answering a list.
  const collectionSegments = new Set<string>();
  for (const operation of operations) {
    const segments = segmentsOf(operation.path);
    segments.forEach((segment, i) => {
      if (segment.parameter === undefined && segments[i + 1]?.parameter !== undefined)
        collectionSegments.add(segment.text);
    });
    const last = segments.at(-1);
    if (last && last.parameter === undefined && shapes.get(operation.id)?.responseIsList)
      collectionSegments.add(last.text);
  }
  const placedList = operations.map((op) => place(op, shapes.get(op.id)!, templates, collectionSegments));
  // Users go by one name whatever the API calls them, so `/me` and a sign-up join `/accounts` or `/members`.
  const userName = placedList
    .map((p) => p.resource)
    .find(
      (name) =>
        name !== 'user' &&
        USER_RESOURCES.test(name) &&
        placedList.some((q) => q.resource === name && (q.item || q.collection)),
    );
  const byName = new Map<string, Resource>();
  const placed = new Map<string, { resource: string } & ResourceOperation>();
  for (const p of placedList) {
    const name = p.resource === 'user' && userName ? userName : p.resource;
    const resource =
      byName.get(name) ??
      ({ name, collections: [], items: [], keys: [], fields: [], schemas: [], operations: [] } satisfies Resource);
    byName.set(name, resource);
    const shape = shapes.get(p.operation.id)!;
    if (p.collection && !resource.collections.includes(p.collection)) resource.collections.push(p.collection);
    if (
      p.item &&
      !resource.items.includes(p.item.template) &&
      (p.role !== 'action' || p.item.template !== p.operation.path)
    )
      resource.items.push(p.item.template);
    // Answers describe the objects of reads, lists, creates, updates and the caller's own record.
    if (['read', 'list', 'create', 'update', 'sign-up'].includes(p.role) && p.resource !== 'session') {
      for (const field of shape.responseFields)
        if (!resource.fields.includes(field.name)) resource.fields.push(field.name);
      if (shape.responseSchema && !resource.schemas.includes(shape.responseSchema))
        resource.schemas.push(shape.responseSchema);
    }
    const entry: ResourceOperation = {
      operationId: p.operation.id,
      role: p.role,
      ...(p.self ? { self: true } : {}),
      ...(p.action ? { action: p.action } : {}),
      ...(p.onCollection ? { onCollection: true } : {}),
    };
    resource.operations.push(entry);
    placed.set(p.operation.id, { resource: name, ...entry });
  }
  for (const p of placedList) {
    if (!p.item) continue;
    const resource = byName.get(p.resource === 'user' && userName ? userName : p.resource)!;
    if (resource.keys.some((k) => k.template === p.item!.template)) continue;
    resource.keys.push({
      template: p.item.template,
      parameter: p.item.parameter,
      field: keyField(resource.name, p.item.parameter, new Set(resource.fields)),
    });
  }
  return { resources: [...byName.values()], placed };
}
