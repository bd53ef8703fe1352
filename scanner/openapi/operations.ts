/**
 * The operations of an OpenAPI description, ready to scan: every path and method, path parameters filled, required
 * query and header parameters sent (VulnAPI dropped them), a JSON body from the examples or the schema, and the
 * operation's credential.
 */
import type { Operation } from '../api.js';
import { scannerError } from '../errors.js';
import type { LoadedDocument } from './load-document.js';
import { operationSecurity, type CredentialValues } from './credential.js';
import { resolveRef } from './resolve-ref.js';
import { responseSchemas } from './response-schemas.js';
import {
  bodyMedia,
  inputFields,
  isLogin,
  isRegistration,
  readBackPath,
  responseProperties,
} from './operation-fields.js';
import { sampleValue } from './sample-value.js';
import { writeMultipart } from '../model/request-body.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Parameter = {
  name?: string;
  in?: string;
  required?: boolean;
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
};

function serverUrl(loaded: LoadedDocument, baseUrl: string | undefined): URL {
  const servers = loaded.document.servers as
    { url?: string; variables?: Record<string, { default?: string }> }[] | undefined;
  let raw = baseUrl;
  if (!raw && servers?.[0]?.url) {
    raw = servers[0].url.replace(/\{([^}]+)\}/g, (_, name: string) => servers[0].variables?.[name]?.default ?? '');
  }
  // OpenAPI 3.x §4.8.1: without servers the default server is "/", relative to where the description was served.
  if (!raw && loaded.remote) raw = '/';
  if (!raw) throw scannerError('invalid_spec', `${loaded.source}: no servers[0].url; give --base-url`);
  try {
    return new URL(raw, loaded.remote ? loaded.source : undefined);
  } catch {
    throw scannerError('invalid_spec', `${loaded.source}: servers[0].url "${raw}" is not absolute; give --base-url`);
  }
}

/** Whether the description itself gives the parameter's value (rather than the scanner generating one from its type). */
function givenValue(document: unknown, parameter: Parameter): boolean {
  if (parameter.example !== undefined || parameter.examples) return true;
  const schema = resolveRef<Record<string, unknown>>(document, parameter.schema);
  if (typeof schema !== 'object' || schema === null) return false;
  return ['example', 'examples', 'default', 'const', 'enum'].some((key) => schema[key] !== undefined);
}

/** Whether the description allows only listed values for the parameter (no object id may replace them). */
function fixedValue(document: unknown, parameter: Parameter): boolean {
  const schema = resolveRef<Record<string, unknown>>(document, parameter.schema);
  return typeof schema === 'object' && schema !== null && (schema.enum !== undefined || schema.const !== undefined);
}

function parameterValue(document: unknown, parameter: Parameter): string {
  const fromExamples = parameter.examples ? Object.values(parameter.examples)[0]?.value : undefined;
  const value = parameter.example ?? fromExamples ?? sampleValue(document, parameter.schema);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The multipart boundary of generated bodies: fixed, so scans of one description send the same bytes. */
const BOUNDARY = 'gatehouse-scanner-boundary';

/** The request body from the description's example or schema: JSON, a form, or multipart text fields. */
function requestBodyOf(document: unknown, requestBody: unknown): { body: string; contentType: string } | undefined {
  const declared = bodyMedia(resolveRef<{ content?: unknown }>(document, requestBody)?.content);
  if (!declared) return undefined;
  const media = declared.media as {
    example?: unknown;
    examples?: Record<string, { value?: unknown }>;
    schema?: unknown;
  };
  const example = media.example ?? (media.examples ? Object.values(media.examples)[0]?.value : undefined);
  const value = example ?? sampleValue(document, media.schema);
  const type = declared.type.toLowerCase();
  if (type.includes('json')) return { body: JSON.stringify(value), contentType: 'application/json' };
  // Form fields are text: nested values are written as JSON, as most form parsers would receive them.
  const fields = Object.entries(typeof value === 'object' && value !== null ? value : {}).map(
    ([name, v]) => [name, typeof v === 'string' ? v : JSON.stringify(v)] as [string, string],
  );
  if (type === 'application/x-www-form-urlencoded')
    return { body: new URLSearchParams(fields).toString(), contentType: 'application/x-www-form-urlencoded' };
  return {
    body: writeMultipart(
      BOUNDARY,
      fields.map(([name, v]) => ({ name, value: v })),
    ),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

export function operationsFromDocument(
  loaded: LoadedDocument,
  options: { baseUrl?: string; credentials: CredentialValues },
): Operation[] {
  const { document } = loaded;
  const base = serverUrl(loaded, options.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const documentSecurity = (document.security ?? []) as Record<string, unknown>[];
  const operations: Operation[] = [];
  const getPaths = Object.entries(document.paths)
    .filter(([, item]) => Boolean(resolveRef<Record<string, unknown>>(document, item)?.get))
    .map(([template]) => template);
  for (const [template, rawItem] of Object.entries(document.paths)) {
    const item = resolveRef<Record<string, unknown>>(document, rawItem) ?? {};
    const shared = ((item.parameters ?? []) as unknown[])
      .map((p) => resolveRef<Parameter>(document, p))
      .filter((p): p is Parameter => Boolean(p));
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const own = ((op.parameters ?? []) as unknown[])
        .map((p) => resolveRef<Parameter>(document, p))
        .filter((p): p is Parameter => Boolean(p));
      const parameters = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      let path = template;
      const url = new URL(base.href);
      const headers: Record<string, string[]> = {};
      const cookies: Record<string, string> = {};
      const pathParameters: { name: string; value: string; given: boolean }[] = [];
      for (const parameter of parameters) {
        if (!parameter.name) continue;
        const value = parameterValue(document, parameter);
        if (parameter.in === 'path' && template.includes(`{${parameter.name}}`)) {
          pathParameters.push({
            name: parameter.name,
            value,
            given: givenValue(document, parameter),
            ...(fixedValue(document, parameter) ? { fixed: true } : {}),
          });
        }
        if (parameter.in === 'path') path = path.split(`{${parameter.name}}`).join(encodeURIComponent(value));
        else if (!parameter.required) continue;
        else if (parameter.in === 'query') url.searchParams.set(parameter.name, value);
        else if (parameter.in === 'header') headers[parameter.name] = [value];
        else if (parameter.in === 'cookie') cookies[parameter.name] = value;
      }
      url.pathname = `${basePath}${path.replace(/\{[^}]+\}/g, 'test')}`;
      const generated = requestBodyOf(document, op.requestBody);
      const body = generated?.body;
      if (generated) headers['Content-Type'] = [generated.contentType];
      const security = operationSecurity(
        document,
        (op.security ?? documentSecurity) as Record<string, unknown>[],
        options.credentials,
      );
      const upper = method.toUpperCase();
      const promised = responseSchemas(document, op.responses);
      const inputs = inputFields(document, parameters, op.requestBody);
      const answers = responseProperties(document, op.responses);
      const readBack = readBackPath(template, upper, getPaths);
      operations.push({
        id: `${upper} ${template}`,
        method: upper,
        url: url.href,
        path: template,
        headers,
        cookies,
        ...(body !== undefined ? { body } : {}),
        ...(security.credential ? { credential: security.credential } : {}),
        securitySchemes: security.schemeNames,
        ...(pathParameters.length > 0
          ? {
              pathParameters: pathParameters.sort(
                (a, b) => template.indexOf(`{${a.name}}`) - template.indexOf(`{${b.name}}`),
              ),
            }
          : {}),
        ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
        ...(typeof op.summary === 'string' ? { summary: op.summary } : {}),
        ...(Array.isArray(op.tags) ? { tags: op.tags.filter((t): t is string => typeof t === 'string') } : {}),
        ...(promised ? { responseSchemas: promised } : {}),
        ...(inputs.length > 0 ? { inputs } : {}),
        ...(answers.length > 0 ? { responseProperties: answers } : {}),
        ...(readBack ? { readBackPath: readBack } : {}),
      });
    }
  }
  if (operations.length === 0) throw scannerError('invalid_spec', `${loaded.source}: has no operations to scan`);
  // A write read back through a GET that needs a credential the write itself does not carry (a public registration).
  const withReadBack = operations.map((op) => {
    const read = op.readBackPath ? operations.find((r) => r.method === 'GET' && r.path === op.readBackPath) : undefined;
    return read?.credential && !op.credential ? { ...op, readBackCredential: read.credential } : op;
  });
  const registration = withReadBack.find(
    (op) => op.body !== undefined && isRegistration(op.method, op.path, op.operationId, op.summary),
  );
  if (!registration) return withReadBack;
  return withReadBack.map((op) =>
    op !== registration && isLogin(op.method, op.path, op.operationId, op.summary)
      ? { ...op, registration: { url: registration.url, body: registration.body! } }
      : op,
  );
}
