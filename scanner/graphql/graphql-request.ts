/**
 * GraphQL over HTTP as the scanner sends and reads it: the JSON POST body `{"query","variables","operationName"}`,
 * the same request as a GET query string or a form-encoded POST (the CSRF-shaped transports), and the answer's
 * `data`/`errors` read back from a response body.
 */

export interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' } as const;
export const FORM_HEADERS = {
  'content-type': 'application/x-www-form-urlencoded',
  accept: 'application/json',
} as const;

export function jsonBody(request: GraphqlRequest): string {
  return JSON.stringify({
    query: request.query,
    ...(request.variables && Object.keys(request.variables).length > 0 ? { variables: request.variables } : {}),
    ...(request.operationName ? { operationName: request.operationName } : {}),
  });
}

/** The parameters of a GET or form request (GraphQL over HTTP §GET: variables as JSON text). */
function params(request: GraphqlRequest): URLSearchParams {
  const search = new URLSearchParams({ query: request.query });
  if (request.variables && Object.keys(request.variables).length > 0)
    search.set('variables', JSON.stringify(request.variables));
  if (request.operationName) search.set('operationName', request.operationName);
  return search;
}

/** The endpoint URL with the request in its query string (any query string it had is replaced). */
export function getUrl(endpoint: string, request: GraphqlRequest): string {
  const url = new URL(endpoint);
  url.search = params(request).toString();
  return url.href;
}

export function formBody(request: GraphqlRequest): string {
  return params(request).toString();
}

export interface GraphqlError {
  message: string;
  code?: string;
}

export interface GraphqlAnswer {
  /** `data` as answered: undefined when absent, null when null. */
  data?: Record<string, unknown> | null;
  errors: GraphqlError[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function errorOf(value: unknown): GraphqlError {
  if (!isObject(value)) return { message: String(value) };
  const extensions = isObject(value.extensions) ? value.extensions : {};
  const code = typeof extensions.code === 'string' ? extensions.code : undefined;
  return { message: typeof value.message === 'string' ? value.message : '', ...(code ? { code } : {}) };
}

/** A GraphQL answer (an object with `data` or `errors`), or undefined for anything else. */
export function parseAnswer(body: string): GraphqlAnswer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || (!('data' in parsed) && !('errors' in parsed))) return undefined;
  const data = parsed.data;
  return {
    ...(isObject(data) || data === null ? { data } : {}),
    errors: Array.isArray(parsed.errors) ? parsed.errors.map(errorOf) : [],
  };
}

/** A batch answer: a JSON array of GraphQL answers, or undefined. */
export function parseBatchAnswer(body: string): GraphqlAnswer[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const answers = parsed.map((item) => parseAnswer(JSON.stringify(item)));
  return answers.every((a) => a !== undefined) ? answers : undefined;
}
