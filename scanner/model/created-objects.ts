/**
 * Objects the scan created, with their creator (a scan identity, or `anonymous` for a sign-up sent without a
 * credential), the keys the answer and the request gave them, and the URL that names each alone: the scan may write
 * to and delete these (docs/architecture.md §2.6), and deletes what is left of them at the end — or lists them in the
 * report as left behind.
 */
import type { ProbeResponse } from '../api.js';
import { answerObject, scalar } from './answer-objects.js';
import type { ApiDescription } from './describe-api.js';
import { parseJson } from './json-pointer.js';
import type { Ownership } from './ownership.js';
import { basePathOf, fillTemplate } from './path-template.js';
import { namedValues } from './write-rule.js';

export interface CreatedObject {
  resource: string;
  /** The create that made it (`POST /api/register`). */
  operationId: string;
  /** The scan identity that sent the create, or `anonymous`. */
  creator: string;
  /** The check whose request created it, when a check sent it. */
  checkId?: string;
  /** Field → value: the keys the scan chose and the ids the answer gave. */
  keys: Record<string, string>;
  /** The URL that names it alone (`Location`, or the resource's item path with its key), when one does. */
  url?: string;
  /** Body fields the create sent (a password the scan chose, to sign in as a created user); never reported. */
  sent: Record<string, unknown>;
  state: 'present' | 'deleted' | 'left';
  /** Why it was left behind. */
  reason?: string;
}

interface CreatedRequest {
  method: string;
  url: string;
  body?: string;
  identity?: string;
  checkId?: string;
}

export interface CreatedObjects {
  /** Learns what a successful create made; returns it (undefined when the request created nothing known). */
  observe(
    request: CreatedRequest,
    response: Pick<ProbeResponse, 'status' | 'headers' | 'body'>,
  ): CreatedObject | undefined;
  /** The created object a URL names alone, if any. */
  byUrl(url: string): CreatedObject | undefined;
  all(): readonly CreatedObject[];
}

const ID_FIELDS = ['id', '_id', 'uuid', 'key', 'slug'];

export function createCreatedObjects(description: ApiDescription | undefined, ownership: Ownership): CreatedObjects {
  const objects: CreatedObject[] = [];
  const path = (url: string): string => new URL(url).pathname.replace(/\/$/, '');
  return {
    observe(request, response) {
      const method = request.method.toUpperCase();
      if ((method !== 'POST' && method !== 'PUT') || response.status < 200 || response.status >= 300) return undefined;
      const named = description ? namedValues(description, request) : undefined;
      const place = named && description ? description.placeOf(named.operation) : undefined;
      // A create of a described resource, or (curl scans) a POST answering an id.
      if (place && !['create', 'sign-up'].includes(place.role)) return undefined;
      const keys: Record<string, string> = {};
      for (const value of named?.values ?? []) if (value.ref.creates) keys[value.ref.field] = value.value;
      const answer = answerObject(parseJson(response.body));
      for (const field of ID_FIELDS) {
        const value = scalar(answer?.[field]);
        if (value !== undefined) keys[field] ??= value;
      }
      let url: string | undefined;
      if (response.headers.location) {
        try {
          url = new URL(response.headers.location, request.url).href;
        } catch {
          url = undefined; // an unparsable Location names nothing
        }
      }
      const resource = place?.resource;
      if (!url && resource && named)
        for (const key of resource.keys) {
          const value = keys[key.field];
          if (value === undefined) continue;
          const item = new URL(named.operation.url);
          item.pathname = `${basePathOf(named.operation.url, named.operation.path).replace(/\/$/, '')}${fillTemplate(key.template, { [key.parameter]: value })}`;
          item.search = '';
          if (!/\{[^}]+\}/.test(item.pathname)) {
            url = item.href;
            break;
          }
        }
      if (!url && !place && keys.id !== undefined)
        url = `${request.url.replace(/[?#].*$/, '').replace(/\/$/, '')}/${encodeURIComponent(keys.id)}`;
      if (Object.keys(keys).length === 0 && !url) return undefined;
      // The same object answered again (a server that hands out one id, a create repeated): one object, present again.
      const same = objects.find(
        (o) =>
          o.resource === (resource?.name ?? 'object') &&
          (url !== undefined ? o.url === url : JSON.stringify(o.keys) === JSON.stringify(keys)),
      );
      if (same) {
        same.state = 'present';
        return same;
      }
      const object: CreatedObject = {
        resource: resource?.name ?? 'object',
        operationId: named?.operation.id ?? `${method} ${new URL(request.url).pathname}`,
        creator: request.identity ?? 'anonymous',
        ...(request.checkId ? { checkId: request.checkId } : {}),
        keys,
        ...(url ? { url } : {}),
        sent: (() => {
          const body = parseJson(request.body);
          return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
        })(),
        state: 'present',
      };
      objects.push(object);
      for (const [field, value] of Object.entries(keys))
        ownership.add({
          resource: object.resource,
          field,
          value,
          owner: object.creator,
          source: 'created',
          from: `created by ${request.checkId ?? 'the scan'} with ${object.operationId}`,
        });
      return object;
    },
    byUrl(url) {
      const wanted = path(url);
      return objects.find((o) => o.url !== undefined && path(o.url) === wanted);
    },
    all: () => objects,
  };
}
