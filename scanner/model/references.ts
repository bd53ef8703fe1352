/**
 * Object references: the inputs of an operation that name an object — a path parameter (`{username}` of
 * `/users/{username}/password`), a query parameter (`?userId=`), or a body field (`username` of a profile update,
 * `userId` of an order, `/owner/id`) — each with the resource and field it names. Body references count as much as
 * path parameters (docs/architecture.md §2.8). A create's key fields (`username` of a sign-up) name the object it
 * creates, not an existing one (`creates`); a sign-in's fields name nobody's object to change.
 */
import type { Operation } from '../api.js';
import type { OperationShape, ShapeField } from './operation-shape.js';
import { segmentsOf } from './path-template.js';
import type { Placement, Resource } from './resources.js';
import { isQueryOnly } from './self-paths.js';
import { isOwnIdName, isPrefixSegment, referencedKey, resourceName, sameKind } from './resource-names.js';

export interface ObjectReference {
  in: 'path' | 'query' | 'body';
  /** The parameter or field name (`username`; a body field's last name). */
  name: string;
  /** Body fields: where the value is (RFC 6901). */
  pointer?: string;
  /** The resource whose object it names, and the field of that object the value is (`user`, `username`). */
  resource: string;
  field: string;
  /** A create's own key: names the object the operation creates (the scan chooses a fresh value). */
  creates?: boolean;
  /** Why the model reads it as a reference, for reasons and the report. */
  via: string;
  /**
   * Not a key but what signs a user in or recovers the account (`password`, `email`) on a write to an existing user:
   * it carries the identity's own value (a change to nothing), or a check's change it restores (`ProbeRequest.restores`).
   */
  credential?: 'password' | 'email';
}

/** The model's resource of a name `referencedKey` gave (`user` → the API's `account`, when it calls users that). */
function resolve(name: string, resources: readonly Resource[]): string {
  return resources.find((r) => r.name === name)?.name ?? resources.find((r) => sameKind(r.name, name))?.name ?? name;
}

/** Field names that are some resource's key through a path parameter (`{email}`, `{book_title}` → the field). */
function pathKeys(resources: readonly Resource[]): Map<string, { resource: string; field: string }> {
  const keys = new Map<string, { resource: string; field: string }>();
  for (const resource of resources)
    for (const key of resource.keys) {
      keys.set(key.parameter, { resource: resource.name, field: key.field });
      keys.set(key.field, { resource: resource.name, field: key.field });
    }
  return keys;
}

/** The name a nested id goes by: `/owner/id` → `ownerId`, `/user/username` → `username`. */
function effectiveName(field: ShapeField): string {
  const parts = (field.pointer ?? '').split('/').filter(Boolean);
  if (parts.length >= 2 && isOwnIdName(field.name)) return `${parts[parts.length - 2]}_${field.name}`;
  return field.name;
}

export function referencesOf(
  operation: Operation,
  shape: OperationShape,
  placement: Placement,
  /** Component schemas of key path parameters (`UserId` → user.id): a body field of that schema names one too. */
  schemaKeys?: ReadonlyMap<string, { resource: string; field: string }>,
): ObjectReference[] {
  const { resources } = placement;
  const placed = placement.placed.get(operation.id);
  const refs: ObjectReference[] = [];
  const segments = segmentsOf(operation.path);
  // Path parameters: the collection segment before each names its resource.
  segments.forEach((segment, index) => {
    if (segment.parameter === undefined) return;
    // A parameter limited to listed values (`{format}` of json|csv) picks a variant, not an object.
    if (shape.fields.some((f) => f.in === 'path' && f.name === segment.parameter && f.enum)) return;
    let collection: string | undefined;
    for (let i = index - 1; i >= 0; i -= 1) {
      if (segments[i].parameter !== undefined) break;
      if (!isPrefixSegment(segments[i].text)) {
        collection = segments[i].text;
        break;
      }
    }
    const template = `/${segments
      .slice(0, index + 1)
      .map((s) => s.text)
      .join('/')}`;
    const byTemplate = resources.find((r) => r.keys.some((k) => k.template === template));
    const key = byTemplate?.keys.find((k) => k.template === template);
    if (byTemplate && key) {
      refs.push({
        in: 'path',
        name: segment.parameter,
        resource: byTemplate.name,
        field: key.field,
        via: `{${segment.parameter}} names one ${byTemplate.name} in ${template}`,
      });
      return;
    }
    const named = referencedKey(segment.parameter);
    const resource = named
      ? resolve(named.resource, resources)
      : collection
        ? resolve(resourceName(collection), resources)
        : undefined;
    if (resource)
      refs.push({
        in: 'path',
        name: segment.parameter,
        resource,
        field: named?.field ?? 'id',
        via: `{${segment.parameter}} names a ${resource}`,
      });
  });
  const keys = pathKeys(resources);
  const bySchema = schemaKeys ?? new Map<string, { resource: string; field: string }>();
  const creating = placed?.role === 'create' || placed?.role === 'sign-up';
  const users = resolve('user', resources);
  const queryOnly = isQueryOnly(operation);
  // A write to an existing user: its own record, a user the path or the body names.
  const onUser =
    placed !== undefined &&
    !creating &&
    placed.role !== 'sign-in' &&
    operation.method.toUpperCase() !== 'GET' &&
    (sameKind(placed.resource, 'user') ||
      refs.some((r) => sameKind(r.resource, 'user')) ||
      shape.fields.some((f) => f.in === 'body' && referencedKey(effectiveName(f))?.resource === 'user'));
  for (const field of shape.fields) {
    if (field.in === 'path') continue;
    // A sign-in names the account it signs in to, a lookup what it looks up: neither changes anybody's object.
    if (placed?.role === 'sign-in' || queryOnly) continue;
    const name = effectiveName(field);
    const credential = field.in === 'body' && onUser ? credentialKind(field.name) : undefined;
    if (credential) {
      refs.push({
        in: 'body',
        name: field.name,
        pointer: field.pointer!,
        resource: users,
        field: credential,
        credential,
        via: `body ${field.pointer} sets the ${credential === 'password' ? 'password' : 'e-mail address'} of a user`,
      });
      continue;
    }
    const top = field.in === 'query' || (field.pointer ?? '').split('/').filter(Boolean).length === 1;
    let target = referencedKey(name);
    if (target) target = { resource: resolve(target.resource, resources), field: target.field };
    else if (keys.has(name)) target = keys.get(name);
    else if (field.schemaName && bySchema.has(field.schemaName)) target = bySchema.get(field.schemaName);
    else if (top && field.in === 'body' && isOwnIdName(name) && placed)
      target = { resource: placed.resource, field: name };
    if (!target) continue;
    if (field.readOnly) continue;
    const own = placed !== undefined && sameKind(target.resource, placed.resource);
    const creates = creating && own && top;
    refs.push({
      in: field.in,
      name: field.name,
      ...(field.pointer !== undefined ? { pointer: field.pointer } : {}),
      resource: target.resource,
      field: target.field,
      ...(creates ? { creates: true } : {}),
      via: creates
        ? `${field.name} is the key of the ${target.resource} this creates`
        : `${field.in} ${field.pointer ?? field.name} names a ${target.resource} (its ${target.field})`,
    });
  }
  return refs;
}

/** A field that signs a user in (a password, old or new) or recovers the account (an e-mail address). */
function credentialKind(name: string): 'password' | 'email' | undefined {
  if (/^((new|old|current|confirm)_?)?pass(word)?(_?(confirm(ation)?|again|repeat))?$|^passwd$|^pwd$/i.test(name))
    return 'password';
  if (/^e-?mail(_?address)?$/i.test(name)) return 'email';
  return undefined;
}
