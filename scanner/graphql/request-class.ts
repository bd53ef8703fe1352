/**
 * The class of a request that carries GraphQL documents (the send gate, scanner/safety.ts): every document in it —
 * a JSON body's `query` (one object or a batch array), a form body's or the URL's `query` parameter, an
 * `application/graphql` body — parsed, and each root field it selects (through fragments too) classified by
 * scanner/operation-class.ts `graphqlFieldClass`. The worst class wins; undefined when the request carries none.
 */
import { Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';
import { graphqlFieldClass, type OperationClass } from '../operation-class.js';

interface RequestLike {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
  body?: string;
}

const RANK: OperationClass[] = ['read', 'write', 'destructive'];

function header(request: RequestLike, name: string): string {
  const key = Object.keys(request.headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : request.headers[key];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The GraphQL document texts a request carries. */
function documentsOf(request: RequestLike): string[] {
  const documents: string[] = [];
  const query = new URL(request.url).searchParams.get('query');
  if (query) documents.push(query);
  const body = request.body;
  if (body === undefined || body === '') return documents;
  const type = header(request, 'content-type').toLowerCase();
  if (type.includes('application/graphql')) return [...documents, body];
  if (type.includes('x-www-form-urlencoded')) {
    const form = new URLSearchParams(body).get('query');
    return form ? [...documents, form] : documents;
  }
  try {
    const parsed = JSON.parse(body) as unknown;
    for (const item of Array.isArray(parsed) ? parsed : [parsed])
      if (item && typeof item === 'object' && typeof (item as { query?: unknown }).query === 'string')
        documents.push((item as { query: string }).query);
  } catch {
    // not JSON: no document in the body
  }
  return documents;
}

function rootFields(document: DocumentNode, selectionSet: SelectionSetNode, seen: Set<string>, out: string[]): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) out.push(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) rootFields(document, selection.selectionSet, seen, out);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = document.definitions.find(
        (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value,
      );
      if (fragment && fragment.kind === Kind.FRAGMENT_DEFINITION)
        rootFields(document, fragment.selectionSet, seen, out);
    }
  }
}

/** The worst class of the root fields of one document, or undefined when it does not parse. */
function documentClass(text: string): OperationClass | undefined {
  let document: DocumentNode;
  try {
    document = parse(text, { noLocation: true });
  } catch {
    return undefined;
  }
  let worst: OperationClass = 'read';
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const fields: string[] = [];
    rootFields(document, definition.selectionSet, new Set(), fields);
    for (const field of fields) {
      if (field.startsWith('__')) continue;
      const found = graphqlFieldClass(definition.operation, field);
      if (RANK.indexOf(found) > RANK.indexOf(worst)) worst = found;
    }
  }
  return worst;
}

export function graphqlRequestClass(request: RequestLike): OperationClass | undefined {
  let worst: OperationClass | undefined;
  for (const text of documentsOf(request)) {
    const found = documentClass(text);
    if (found && (!worst || RANK.indexOf(found) > RANK.indexOf(worst))) worst = found;
  }
  return worst;
}
