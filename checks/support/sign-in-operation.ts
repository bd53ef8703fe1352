/**
 * Whether an operation signs a user in (login, sign-in, session or token creation), from its path, operationId and
 * summary: such an operation answering 2xx where it answered 401 is an authentication bypass, not a data leak.
 */
import type { Operation } from '../../scanner/api.js';
import { wordsOf } from '../../scanner/operation-class.js';

const SIGN_IN = /^(login|logon|signin|authenticate|authentication|auth|session|sessions|token|tokens)$/;

export function signsIn(operation: Operation): boolean {
  if (operation.method.toUpperCase() !== 'POST') return false;
  return [operation.path, operation.operationId, operation.summary].some((name) => {
    if (typeof name !== 'string') return false;
    const words = wordsOf(name);
    const joined = words.map((word, i) => `${word}${words[i + 1] ?? ''}`);
    return words.some((w) => SIGN_IN.test(w)) || joined.some((w) => SIGN_IN.test(w));
  });
}
