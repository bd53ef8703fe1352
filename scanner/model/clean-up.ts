/**
 * After the checks: every object the scan created and no check deleted is deleted by its creator — the resource's
 * delete operation sent as the identity that created it, or, for a user a sign-up created, as that new user signed in
 * with the credentials the scan chose — without `--allow-destructive` (the scan's own objects only: the send gate
 * lets exactly these through). What cannot be deleted is left behind, with the reason (the report lists it).
 */
import type { Operation, ProbeRequest, ProbeResponse } from '../api.js';
import { tokenIn } from './credentials/token-in-answer.js';
import type { CreatedObject } from './created-objects.js';
import type { ApiDescription } from './describe-api.js';
import type { ScanIdentity } from './identities.js';
import { parseJson } from './json-pointer.js';
import { basePathOf, fillTemplate } from './path-template.js';
import { sameKind } from './resource-names.js';

type Send = (operation: Operation, probe: ProbeRequest, identity?: ScanIdentity) => Promise<ProbeResponse>;

const gone = (status: number): boolean => (status >= 200 && status < 300) || status === 404 || status === 410;

/** The delete operation that names `object` alone, and the URL of it. */
function deletion(
  description: ApiDescription,
  object: CreatedObject,
): { operation: Operation; url: string } | undefined {
  const resource = description.resources.find((r) => r.name === object.resource);
  for (const entry of resource?.operations.filter((o) => o.role === 'delete') ?? []) {
    const operation = description.byId(entry.operationId);
    if (!operation || operation.method.toUpperCase() !== 'DELETE') continue;
    const key = resource!.keys.find((k) => k.template === operation.path);
    const value = key ? object.keys[key.field] : undefined;
    if (!key || value === undefined) continue;
    const url = new URL(operation.url);
    url.pathname = `${basePathOf(operation.url, operation.path).replace(/\/$/, '')}${fillTemplate(operation.path, { [key.parameter]: value })}`;
    if (!/\{|%7B/.test(url.pathname)) return { operation, url: url.href };
  }
  return undefined;
}

/** A created user signed in with what the scan sent at its sign-up: its token, or undefined. */
async function signInAs(description: ApiDescription, object: CreatedObject, send: Send): Promise<string | undefined> {
  const signIn = description.operations.find((op) => description.placeOf(op)?.role === 'sign-in');
  const sample = parseJson(signIn?.body);
  if (!signIn || !sample || typeof sample !== 'object') return undefined;
  const fields: Record<string, string> = {};
  for (const name of Object.keys(sample)) {
    const value = object.sent[name];
    if (typeof value === 'string') fields[name] = value;
  }
  if (Object.keys(fields).length < 2) return undefined;
  const response = await send(signIn, { body: JSON.stringify({ ...sample, ...fields }), credential: null }).catch(
    () => undefined,
  );
  if (!response || response.status >= 300) return undefined;
  return tokenIn(parseJson(response.body))?.token;
}

export async function cleanUpCreated(
  description: ApiDescription,
  objects: readonly CreatedObject[],
  identities: readonly ScanIdentity[],
  send: Send,
): Promise<void> {
  for (const object of objects) {
    if (object.state !== 'present') continue;
    const target = deletion(description, object);
    const creator = identities.find((i) => i.name === object.creator);
    const isUser = sameKind(object.resource, 'user');
    const selfDelete = isUser
      ? description.operations.find((op) => op.method.toUpperCase() === 'DELETE' && description.placeOf(op)?.self)
      : undefined;
    if (!target && !selfDelete) {
      object.state = 'left';
      object.reason = `no operation of the description deletes a ${object.resource}`;
      continue;
    }
    try {
      let response: ProbeResponse | undefined;
      if (target && creator) response = await send(target.operation, { url: target.url, body: null }, creator);
      if ((!response || !gone(response.status)) && isUser) {
        // A user the scan signed up deletes itself: signed in with the credentials the scan chose for it.
        const token = await signInAs(description, object, send);
        const via = target ?? (selfDelete ? { operation: selfDelete, url: selfDelete.url } : undefined);
        if (token && via)
          response = await send(via.operation, {
            url: via.url,
            body: null,
            credential: null,
            headers: { Authorization: `Bearer ${token}` },
          });
      }
      if (response && gone(response.status)) object.state = 'deleted';
      else {
        object.state = 'left';
        object.reason = response
          ? `${target?.operation.id ?? selfDelete!.id} answered ${response.status} to its creator`
          : `its creator (${object.creator}) cannot send ${target?.operation.id ?? selfDelete!.id}`;
      }
    } catch (error) {
      object.state = 'left';
      object.reason = `deleting it failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
