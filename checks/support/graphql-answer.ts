/**
 * How checks judge a GraphQL answer: GraphQL over HTTP answers 200 to a refused request (the refusal is in `errors`,
 * the field `null`), so a status alone says nothing. `answerStatus` gives the status the answer stands for — the
 * HTTP status when it is not 2xx or the operation is not GraphQL; else 401 for "not authenticated", 403 for
 * "forbidden", 400 for a document or variables the server refused, 429 for a rate limit, 404 for a `null` field
 * without errors, 500 for any other error on a `null` field — so the checks' status rules work on every scan kind.
 * Also: which checks run on the endpoint only in GraphQL scans (the request line and headers are the same for
 * every field).
 */
import type { Operation, ProbeResponse } from '../../scanner/api.js';
import { parseAnswer, type GraphqlError } from '../../scanner/graphql/graphql-request.js';

/** What a check knows of the GraphQL operation an answer belongs to (`operation.graphql`, or facts that carry it). */
export type GraphqlSide = Pick<Operation, 'graphql'> | { graphql?: { field?: string } };

const UNAUTHENTICATED =
  /not authenticated|unauthenticated|authentication (?:is )?required|login required|not logged in|must (?:be )?(?:logged|signed) in|invalid (?:token|credentials?|username or password)|missing (?:token|credentials?|authorization)|jwt|token (?:is )?(?:expired|invalid)/i;
const FORBIDDEN =
  /forbidden|not allowed|permission|access denied|not authori[sz]ed|insufficient|admin(?:istrator)?s? only|requires? (?:an? )?(?:admin|role)/i;
const INVALID =
  /^Syntax Error|Cannot query field|Unknown (?:argument|type|fragment|directive)|Variable "\$|of required type|cannot represent|Expected value of type|was not provided|must have a selection|must not have a selection|Unknown operation named|Must provide/i;
const LIMITED = /too many requests|rate.?limit|throttl/i;

function statusOfErrors(errors: GraphqlError[]): number {
  const codes = errors.map((e) => e.code ?? '');
  const text = errors.map((e) => e.message).join('\n');
  if (codes.includes('UNAUTHENTICATED') || UNAUTHENTICATED.test(text)) return 401;
  if (codes.includes('FORBIDDEN') || FORBIDDEN.test(text)) return 403;
  if (codes.some((c) => c === 'RATE_LIMITED' || c === 'TOO_MANY_REQUESTS') || LIMITED.test(text)) return 429;
  if (
    codes.some((c) =>
      ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'BAD_USER_INPUT', 'BAD_REQUEST'].includes(c),
    ) ||
    INVALID.test(text)
  )
    return 400;
  if (codes.includes('NOT_FOUND') || /not found/i.test(text)) return 404;
  return 500;
}

/** The status a response stands for (see the header). */
export function answerStatus(response: Pick<ProbeResponse, 'status' | 'body'>, side?: GraphqlSide): number {
  if (!side?.graphql || response.status < 200 || response.status >= 300) return response.status;
  const answer = parseAnswer(response.body);
  if (!answer) return response.status;
  const field = side.graphql.field;
  const data = answer.data;
  const value = data && field ? data[field] : data;
  const empty =
    value === undefined ||
    value === null ||
    (!field && typeof value === 'object' && Object.values(value).every((v) => v === null));
  if (answer.errors.length > 0 && empty) return statusOfErrors(answer.errors);
  if (answer.errors.length === 0 && empty) return data === undefined ? 500 : 404;
  // Data came back (perhaps with errors on some nested fields): the operation was served.
  return response.status;
}

/** Whether the answer stands for a success (2xx) — for GraphQL, data for the field. */
export const answered = (response: Pick<ProbeResponse, 'status' | 'body'>, side?: GraphqlSide): boolean => {
  const status = answerStatus(response, side);
  return status >= 200 && status < 300;
};

/** The JSON of a GraphQL answer's field (`data.<field>`), for checks that compare objects; the body otherwise. */
export function answerData(response: Pick<ProbeResponse, 'body'>, side?: GraphqlSide): string {
  const field = side?.graphql?.field;
  if (!field) return response.body;
  const value = parseAnswer(response.body)?.data?.[field];
  return value === undefined ? '' : JSON.stringify(value);
}

/**
 * `appliesTo` of checks about the HTTP exchange itself (headers, cookies, methods, CORS): in a GraphQL scan every
 * field shares the endpoint's request line and headers, so they run once, on the endpoint operation.
 */
export function onGraphqlEndpointOnly(operation: Operation): true | string {
  return operation.graphql?.field
    ? 'a GraphQL field: this check judges the HTTP exchange, which every field shares; it runs on the endpoint operation'
    : true;
}
