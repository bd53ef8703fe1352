/**
 * The ways an introspection query is sent: plainly (JSON POST), then the known bypasses of introspection blocks that
 * match the query text or the transport — a sacrificial field before `__schema`, `__schema` followed by a comma (a
 * GraphQL "ignored token") instead of a brace, `__schema` under an alias, GET instead of POST, a form-encoded or an
 * `application/graphql` POST. The schema read (read-schema.ts) and graphql.introspection_bypass use the same list.
 */
import type { ProbeRequest } from '../api.js';
import { formBody, getUrl, JSON_HEADERS, jsonBody, parseAnswer, FORM_HEADERS } from './graphql-request.js';

export interface IntrospectionVariant {
  /** Short id (`sacrificial-field`), used in the report's schemaSource. */
  name: string;
  /** What it does, for details. */
  how: string;
  request(endpoint: string, query: string): ProbeRequest;
}

const SCHEMA = /__schema\s*\{/;

const post = (query: string): ProbeRequest => ({
  method: 'POST',
  headers: { ...JSON_HEADERS },
  body: jsonBody({ query }),
});

export const PLAIN: IntrospectionVariant = {
  name: 'introspection',
  how: 'the introspection query as a JSON POST',
  request: (_endpoint, query) => post(query),
};

export const BYPASSES: IntrospectionVariant[] = [
  {
    name: 'sacrificial-field',
    how: 'a __typename field before __schema',
    request: (_endpoint, query) => post(query.replace(/\{(\s*)__schema/, '{$1__typename __schema')),
  },
  {
    name: 'comma-after-schema',
    how: '__schema followed by a comma (an ignored token) before its brace',
    request: (_endpoint, query) => post(query.replace(SCHEMA, '__schema ,{')),
  },
  {
    name: 'aliased-schema',
    how: '__schema under an alias',
    request: (_endpoint, query) => post(query.replace(/__schema(\s*)\{/, 'gatehouse: __schema$1{')),
  },
  {
    name: 'get',
    how: 'GET instead of POST',
    request: (endpoint, query) => ({
      method: 'GET',
      url: getUrl(endpoint, { query }),
      headers: { accept: 'application/json', 'content-type': null },
      body: null,
    }),
  },
  {
    name: 'form-post',
    how: 'a form-encoded POST',
    request: (_endpoint, query) => ({ method: 'POST', headers: { ...FORM_HEADERS }, body: formBody({ query }) }),
  },
  {
    name: 'application-graphql',
    how: 'an application/graphql POST',
    request: (_endpoint, query) => ({
      method: 'POST',
      headers: { 'content-type': 'application/graphql', accept: 'application/json' },
      body: query,
    }),
  },
];

/** The `__schema` object of an introspection answer (under any alias), or undefined. */
export function schemaIn(body: string): Record<string, unknown> | undefined {
  const answer = parseAnswer(body);
  if (!answer?.data) return undefined;
  for (const value of Object.values(answer.data)) {
    if (typeof value === 'object' && value !== null && 'queryType' in value) {
      const schema = value as Record<string, unknown>;
      if (typeof schema.queryType === 'object' && schema.queryType !== null) return schema;
    }
  }
  return undefined;
}
