/**
 * A credential from a sign-in operation of the description (`--identity NAME=login:username=…&password=…`): the
 * operation the user named, or the description's sign-in; the fields sent as its JSON body (a form when the
 * description says so); the token found in the answer (a pointer the user gave, else a field named like one); its
 * expiry from `expires_in` or the token's `exp`. Renewing signs in again.
 */
import type { Operation, ProbeResponse } from '../../api.js';
import { scannerError } from '../../errors.js';
import { answerObject, identifyingFields } from '../answer-objects.js';
import { parseJson } from '../json-pointer.js';
import { sharedRenewal, type CredentialProvider } from './credential-provider.js';
import { expiryOf, tokenIn } from './token-in-answer.js';

export interface LoginSend {
  (request: { method: string; url: string; headers: Record<string, string>; body: string }): Promise<ProbeResponse>;
}

export interface LoginSpec {
  /** The identity's name, for messages. */
  identity: string;
  operation: Operation;
  /** `form` when the description's sign-in takes `application/x-www-form-urlencoded`. */
  encoding: 'json' | 'form';
  fields: Record<string, string>;
  tokenPointer?: string;
}

const SECRET_FIELD = /pass|secret|token|key|otp|pin|code/i;

export function createLoginProvider(spec: LoginSpec, send: LoginSend): CredentialProvider {
  let token: string | undefined;
  let expires: number | undefined;
  const held: string[] = Object.entries(spec.fields)
    .filter(([key]) => SECRET_FIELD.test(key))
    .map(([, value]) => value);
  const learned: Record<string, unknown> = Object.fromEntries(
    Object.entries(spec.fields).filter(([key]) => !SECRET_FIELD.test(key)),
  );
  const describe = `login through ${spec.operation.id}`;

  async function signIn(): Promise<void> {
    let base: Record<string, unknown> = {};
    const sample = parseJson(spec.operation.body);
    if (spec.encoding === 'json' && sample && typeof sample === 'object' && !Array.isArray(sample))
      base = sample as Record<string, unknown>;
    const body =
      spec.encoding === 'form'
        ? new URLSearchParams(spec.fields).toString()
        : JSON.stringify({ ...base, ...spec.fields });
    const response = await send({
      method: spec.operation.method,
      url: spec.operation.url,
      headers: {
        'Content-Type': spec.encoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body,
    });
    if (response.status < 200 || response.status >= 300)
      throw scannerError(
        'invalid_argument',
        `--identity ${spec.identity}: ${describe} answered ${response.status}: check the sign-in fields`,
      );
    const answer = parseJson(response.body);
    const found = tokenIn(answer, spec.tokenPointer);
    if (!found)
      throw scannerError(
        'invalid_argument',
        `--identity ${spec.identity}: ${describe} answered no token${spec.tokenPointer ? ` at ${spec.tokenPointer}` : ''} (give its place with token=/pointer)`,
      );
    token = found.token;
    held.push(found.token);
    expires = expiryOf(answer, found.token);
    const record = answerObject(answer);
    for (const [field, value] of identifyingFields(record ?? {})) learned[field] ??= value;
  }

  return {
    describe,
    start: signIn,
    current: () => token,
    expiresAt: () => expires,
    ...sharedRenewal(signIn),
    secrets: () => [...held],
    learned: () => learned,
  };
}
