/**
 * The sign-in operations password checks aim at: a POST that signs in (sign-in-operation.ts: login, sign-in, session
 * or token in its path, operationId or summary — a GraphQL `mutation.login` too) whose JSON body carries a user-name
 * or e-mail input and a password input (GraphQL arguments at `variables.<name>`).
 */
import { operationInputs, type Operation, type OperationInput } from '../../scanner/api.js';
import { signsIn } from './sign-in-operation.js';

const USER_FIELD = /^(user(_?name)?|login|e?-?mail(_?address)?|account(_?name)?|handle|identifier)$/i;
const PASSWORD_FIELD = /^(pass(word)?|passwd|pwd)$/i;

export interface LoginInputs {
  user: OperationInput;
  password: OperationInput;
}

/** The user-name and password inputs of a sign-in operation, or why the operation is not one. */
export function loginInputs(operation: Operation): LoginInputs | string {
  if (!signsIn(operation))
    return 'not a sign-in operation (a POST whose path, operationId or summary names login, sign-in, session or token)';
  const body = operationInputs(operation).filter((f) => f.location === 'body' || f.location === 'argument');
  const user = body.find((f) => USER_FIELD.test(f.name) && (f.example === undefined || typeof f.example === 'string'));
  const password = body.find((f) => PASSWORD_FIELD.test(f.name));
  return user && password ? { user, password } : 'no user-name and password inputs in its JSON body';
}

/** Whether the user input takes an e-mail address (by its name or declared format). */
export const takesEmail = (field: OperationInput): boolean =>
  /mail/i.test(field.name) || field.declared?.format === 'email';
