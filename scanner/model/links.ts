/**
 * Links: the places that carry the same kind of value — `username` in a sign-up body, `{username}` in
 * `/users/{username}`, `username` in the `/me` answer — grouped by the resource field they name (same name and type,
 * `$ref` to the same schema, or a value format both declare). A link decides which identity's value fills a
 * reference, and which read shows what a write did (docs/architecture.md §2.8).
 */
import type { OperationShape } from './operation-shape.js';
import type { ObjectReference } from './references.js';
import type { Placement } from './resources.js';
import { sameKind } from './resource-names.js';

export interface LinkEnd {
  operationId: string;
  /** Why this end carries the field (the reference's reason; answers: a field of that name). */
  via: string;
  in: 'path' | 'query' | 'body' | 'response';
  name: string;
  pointer?: string;
}

export interface Link {
  /** The resource field every end carries (`user.username`). */
  resource: string;
  field: string;
  ends: LinkEnd[];
}

export function linksOf(
  placement: Placement,
  shapes: ReadonlyMap<string, OperationShape>,
  references: ReadonlyMap<string, readonly ObjectReference[]>,
): Link[] {
  const links = new Map<string, Link>();
  const linkOf = (resource: string, field: string): Link => {
    const key = `${resource}.${field}`;
    const link = links.get(key) ?? { resource, field, ends: [] };
    links.set(key, link);
    return link;
  };
  for (const [operationId, refs] of references)
    for (const ref of refs.filter((r) => !r.credential))
      linkOf(ref.resource, ref.field).ends.push({
        operationId,
        in: ref.in,
        name: ref.name,
        via: ref.via,
        ...(ref.pointer ? { pointer: ref.pointer } : {}),
      });
  // Answers of a resource's operations carry its fields: `username` in `/me` joins `{username}` of `/users/{username}`.
  for (const [operationId, placed] of placement.placed) {
    const shape = shapes.get(operationId);
    if (!shape || placed.role === 'sign-in') continue;
    for (const field of shape.responseFields) {
      const link = [...links.values()].find((l) => sameKind(l.resource, placed.resource) && l.field === field.name);
      if (link) link.ends.push({ operationId, in: 'response', name: field.name, via: `answers ${field.name}` });
    }
  }
  const all = [...links.values()];
  return all.filter((l) => l.ends.length > 1 || l.ends.some((e) => e.in !== 'response'));
}
