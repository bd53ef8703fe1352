/**
 * Token-typed GraphQL arguments (`me(token: String!)`, `verify(jwt: JWT!)`): when the scan's credential is a JWT, such
 * an argument carries it, and it becomes the field operation's credential — a body credential at
 * `variables.<argument>` (scanner/probe-request.ts places attack values there) — so the jwt.* checks attack the token
 * where the field reads it. The endpoint's own credential travels beside it (`Credential.with`: the header, query
 * parameter or cookie as given), so the field is called as the scan's identity and only the argument changes; a
 * request without credential carries neither.
 */
import { getNamedType, isScalarType, type GraphQLArgument, type GraphQLField } from 'graphql';
import type { Operation } from '../api.js';
import { isJwt } from '../compact-jwt.js';
import { jsonBody } from './graphql-request.js';

const TOKEN_NAME = /^(token|jwt|(access|id|auth|bearer|session|refresh|api)_?token)$/i;
const TOKEN_SCALAR = /jwt|token/i;

/** An argument that takes a token: named like one, of a scalar type (String, ID, or a JWT/Token scalar). */
function isTokenArgument(arg: GraphQLArgument): boolean {
  const type = getNamedType(arg.type);
  if (!isScalarType(type)) return false;
  const named = TOKEN_NAME.test(arg.name) || TOKEN_SCALAR.test(type.name);
  const scalar = type.name === 'String' || type.name === 'ID' || TOKEN_SCALAR.test(type.name);
  return named && scalar;
}

/**
 * The field operation with its first token argument carrying the scan's JWT as its credential; unchanged when the
 * field has no token argument or the scan's credential is no JWT (a default value that is a JWT counts as one).
 */
export function withTokenArgument(operation: Operation, field: GraphQLField<unknown, unknown>): Operation {
  const graphql = operation.graphql;
  const own = operation.credential;
  if (!graphql) return operation;
  for (const arg of field.args) {
    if (!isTokenArgument(arg)) continue;
    const token = own?.format === 'jwt' ? own.value : typeof arg.defaultValue === 'string' ? arg.defaultValue : '';
    if (!isJwt(token)) continue;
    const variables = { ...graphql.variables, [arg.name]: token };
    return {
      ...operation,
      body: jsonBody({ query: graphql.document, variables, operationName: graphql.operationName }),
      graphql: { ...graphql, variables },
      credential: {
        schemeName: `${arg.name}_argument`,
        type: 'apiKey',
        in: 'body',
        name: arg.name,
        pointer: ['variables', arg.name],
        format: 'jwt',
        value: token,
        ...(own && own.in !== 'body' ? { with: own } : {}),
      },
    };
  }
  return operation;
}
