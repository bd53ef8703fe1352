/**
 * bola.modify on a write that changes a user's password or e-mail address (`PUT /users/{username}/password`): the
 * other identity sets the first identity's to a value of the scan's; the oracle is a sign-in with the new password
 * (or a read of the record showing the new address); then the first identity sets it back — signed in with the new
 * password when the change ended its session — and the scan renews its token. Sent only when the scan can undo it:
 * it signs the first identity in itself, so it knows the password to restore.
 */
import { randomBytes } from 'node:crypto';
import type { CheckContext, FindingEvidence, ObjectReference, ProbeResponse } from '../../scanner/api.js';
import type { ObjectUnderTest } from './owner-read.js';

const ok = (status: number): boolean => status >= 200 && status < 300;

function withValue(body: string | undefined, pointer: string, value: string): string {
  const parsed = JSON.parse(body ?? '{}') as Record<string, unknown>;
  parsed[pointer.slice(1)] = value;
  return JSON.stringify(parsed);
}

/** The finding's evidence, or undefined when the other identity's change did not take (passed). */
export async function changeCredential(
  ctx: CheckContext,
  field: ObjectReference,
  object: ObjectUnderTest,
): Promise<FindingEvidence | undefined> {
  const first = ctx.model.identity('first')!;
  const operation = ctx.operation;
  if (field.credential === 'password' && !first.signsIn)
    return ctx.skip(
      "changing the first identity's password could not be undone: give it as --identity first=login:username=…&password=env:VARIABLE, so the scan knows the password to set back",
    );
  const tag = randomBytes(5).toString('hex');
  const marker = field.credential === 'password' ? `Gh-${tag}-Aa1!x` : `gh-${tag}@example.invalid`;
  const before = field.credential === 'email' ? await object.read() : undefined;
  const original = field.credential === 'email' ? before?.object?.[field.name] : undefined;
  if (field.credential === 'email' && typeof original !== 'string')
    return ctx.skip(
      `the first identity's ${field.name} cannot be read back before the change (${object.unreadable()})`,
    );

  const theirs = await ctx.http.send({
    body: withValue(operation.body, field.pointer!, marker),
    as: 'other',
    restores: true,
  });
  if (!ok(theirs.status)) return undefined;

  // The oracle: a sign-in with the new password, or the record read back.
  let proof: ProbeResponse | undefined;
  let token: string | undefined;
  let oracle: FindingEvidence['oracle'];
  if (field.credential === 'password') {
    const signIn = await ctx.model.signInAs(ctx.http, 'first', { [field.name]: marker });
    if (!signIn || !ok(signIn.response.status)) return undefined;
    proof = signIn.response;
    token = signIn.token;
    const via = ctx.model.operations.find((op) => ctx.model.placeOf(op)?.role === 'sign-in');
    oracle = { kind: 'login', operation: via?.id ?? 'sign-in', attempts: [proof] };
  } else {
    const after = await object.read();
    if (after.object?.[field.name] !== marker) return undefined;
    proof = after.response;
    oracle = { kind: after.oracle?.kind ?? 'read', operation: after.oracle?.operation ?? 'GET', attempts: [proof] };
  }

  // Set back, as the first identity: its own password (the model fills it), or the address read before.
  const restoreBody =
    field.credential === 'password'
      ? ctx.model.requestAs(operation, 'first').probe.body
      : withValue(operation.body, field.pointer!, original as string);
  let restore = await ctx.http.send({ body: restoreBody, restores: true });
  if (restore.status === 401 && token)
    restore = await ctx.http.send({
      body: restoreBody,
      restores: true,
      credential: null,
      headers: { Authorization: `Bearer ${token}` },
    });
  let restored = ok(restore.status);
  if (field.credential === 'password') {
    // The old password works again: the scan signs the first identity in anew (the change may have ended its session).
    const again = await ctx.model.signInAs(ctx.http, 'first');
    restored &&= again !== undefined && ok(again.response.status);
    await ctx.model.renew('first', 'bola.modify changed and restored its password');
  }
  const what = field.credential === 'password' ? 'password' : `e-mail address (${field.name})`;
  return {
    detail:
      `the --as-other identity changed the first identity's ${what} (${operation.method} ${theirs.status}) and ` +
      (field.credential === 'password'
        ? 'signing in as the first identity with the new password succeeded'
        : `its record now shows the new address`) +
      `; ${restored ? `set back as the first identity (${restore.status})` : `NOT set back (${restore.status}): set the first identity's ${what} back by hand`}`,
    steps: [
      { attempt: theirs, role: `${operation.method} by the --as-other identity` },
      {
        attempt: proof,
        role:
          field.credential === 'password'
            ? 'sign-in with the new password'
            : 'read-back by the owner (the first identity)',
      },
      { attempt: restore, role: `restore by the owner (${operation.method} with the earlier value)` },
    ],
    ...(oracle ? { oracle } : {}),
  };
}
