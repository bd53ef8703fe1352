/**
 * GraphQL over HTTP for the demo, on graphql-http (the GraphQL foundation's spec-compliant, dependency-free server).
 * The secure twin is graphql-http as shipped (JSON POST; GET for queries only; no batches) plus its validation rules
 * (guards.ts), no introspection and no "Did you mean" in errors. The vulnerable twin keeps every default that real
 * APIs are found with: batches of operations (a JSON array), mutations over GET and form-encoded POSTs (CSRF),
 * circular fragments accepted (the NoFragmentCycles rule dropped), suggestions, stack traces of unexpected errors, a deny list
 * of query texts (introspection, `systemDiagnostics`) matched with patterns a sacrificial field or an alias slips past.
 */
import type { Request, Response } from 'express';
import {
  execute,
  GraphQLError,
  NoFragmentCyclesRule,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type GraphQLSchema,
} from 'graphql';
import { createHandler, type OperationContext } from 'graphql-http';
import type { User } from '../vulnerable-api/store.js';
import { costLimits } from './guards.js';
import type { DemoContext } from './resolvers.js';
import type { GraphqlStore } from './store.js';

/** The vulnerable twin's deny list: what an operator meant to keep from ordinary users, matched on the text. */
const DENY_LIST = [
  { pattern: /\{\s*__schema\s*\{/, message: 'introspection is disabled' },
  { pattern: /\{\s*systemDiagnostics\b/, message: 'systemDiagnostics is on the query deny list' },
];

const vulnerableRules = specifiedRules.filter((rule) => rule !== NoFragmentCyclesRule);
const secureRules = [...specifiedRules, NoSchemaIntrospectionCustomRule, costLimits];

function userOf(store: GraphqlStore, authorization: unknown): User | undefined {
  const token = typeof authorization === 'string' ? /^Bearer (.+)$/i.exec(authorization)?.[1] : undefined;
  const id = token ? (store.tokens.get(token) ?? store.sessions.userIdOf(token)) : undefined;
  return id ? store.users.find((u) => u.id === id) : undefined;
}

function formatError(secure: boolean) {
  return (raw: Readonly<Error | GraphQLError>): Error => {
    if (!(raw instanceof GraphQLError)) return raw;
    const copy = (message: string, extensions: Record<string, unknown>): GraphQLError =>
      new GraphQLError(message, {
        nodes: raw.nodes,
        source: raw.source,
        positions: raw.positions,
        path: raw.path,
        originalError: raw.originalError,
        extensions,
      });
    const internal = raw.originalError && !(raw.originalError instanceof GraphQLError);
    if (!secure) {
      // A development build's errors: what a resolver threw unexpectedly comes with its stack.
      const stack = internal ? raw.originalError.stack : undefined;
      return stack ? copy(raw.message, { ...raw.extensions, stacktrace: stack.split('\n') }) : raw;
    }
    return copy(internal ? 'internal error' : raw.message.replace(/ ?Did you mean [^?]*\?/g, ''), {
      ...raw.extensions,
    });
  };
}

export interface DemoHandler {
  (req: Request, res: Response): Promise<void>;
}

export function graphqlHandler(
  schema: GraphQLSchema,
  rootValue: unknown,
  store: GraphqlStore,
  secure: boolean,
): DemoHandler {
  const contextOf = (req: { headers: Record<string, unknown> }): DemoContext => {
    const user = userOf(store, req.headers.authorization);
    return user ? { user } : {};
  };
  const handler = createHandler<Request, undefined, OperationContext>({
    schema,
    rootValue,
    context: (req) => contextOf(req.raw) as OperationContext,
    validationRules: () => (secure ? secureRules : vulnerableRules),
    formatError: formatError(secure),
    ...(secure
      ? {}
      : {
          // Form-encoded POSTs are read like GET parameters (a browser form can send them cross-site).
          parseRequestParams: (req) => {
            if (
              req.method !== 'POST' ||
              !String(req.headers && (req.raw.headers['content-type'] ?? '')).includes('form')
            )
              return undefined;
            const form = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
            const variables = form.get('variables');
            return {
              query: form.get('query') ?? '',
              ...(variables ? { variables: JSON.parse(variables) as Record<string, unknown> } : {}),
              ...(form.get('operationName') ? { operationName: form.get('operationName')! } : {}),
            };
          },
          onSubscribe: async (req, params) => {
            const blocked = DENY_LIST.find((entry) => entry.pattern.test(params.query));
            if (blocked) return [new GraphQLError(blocked.message)];
            // GET requests run whatever they carry, mutations included (graphql-http refuses those by default).
            if (req.method !== 'GET') return undefined;
            const document = parse(params.query);
            const errors = validate(schema, document, vulnerableRules);
            if (errors.length > 0) return errors;
            return await execute({
              schema,
              document,
              rootValue,
              contextValue: contextOf(req.raw),
              variableValues: params.variables ?? undefined,
              operationName: params.operationName ?? undefined,
            });
          },
        }),
  });

  const answer = async (
    req: Request,
    body: string,
  ): Promise<[string | null, { status?: number; headers?: Record<string, string> }]> => {
    const [text, init] = await handler({
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      body,
      raw: req,
      context: undefined,
    });
    return [text, { status: init.status, headers: init.headers }];
  };

  return async (req, res) => {
    const body = typeof req.body === 'string' ? req.body : '';
    if (!secure && req.method === 'POST' && body.trimStart().startsWith('[')) {
      // A batch: every operation of the array runs, one after another, and the answers come back as an array.
      let items: unknown[];
      try {
        items = JSON.parse(body) as unknown[];
      } catch {
        return void res.status(400).json({ errors: [{ message: 'Unparsable JSON body' }] });
      }
      const answers: unknown[] = [];
      for (const item of items) {
        const [text] = await answer(req, JSON.stringify(item));
        answers.push(text === null ? null : (JSON.parse(text) as unknown));
      }
      return void res.status(200).json(answers);
    }
    const [text, init] = await answer(req, body);
    res.status(init.status ?? 200);
    for (const [name, value] of Object.entries(init.headers ?? {})) res.setHeader(name, value);
    res.end(text ?? '');
  };
}
