/**
 * One root field of a GraphQL schema as a scan operation: `POST /graphql query.orders`, its JSON body a named
 * document that calls the field with every argument as a variable (values from fill-value.ts) and selects the field's
 * scalar fields, so checks that rewrite body inputs reach the arguments at `variables.<name>`.
 */
import {
  getNamedType,
  isEnumType,
  isInterfaceType,
  isInputObjectType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLOutputType,
} from 'graphql';
import type { InputField, Operation } from '../api.js';
import { jsonBody } from './graphql-request.js';
import { describeInput, valueFor } from './fill-value.js';
import { withTokenArgument } from './token-argument.js';
import { UNKNOWN_FIELD } from './suggestions.js';

const MAX_SCALARS = 20;
const MAX_SELECTION_DEPTH = 2;

/** What a field operation is built from besides the field: the endpoint operation and the schema's provenance. */
export interface FieldContext {
  /** The endpoint operation (URL, headers, cookies, credential) every field operation copies. */
  endpoint: Operation;
  schemaSource: string;
  sdl?: string;
}

const hasRequiredArgs = (field: GraphQLField<unknown, unknown>): boolean =>
  field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined);

/** The smallest useful selection of a type: its scalar fields (no required arguments), else one object field's, else `__typename`. */
function selectionFor(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (isScalarType(named) || isEnumType(named)) return '';
  if (!isObjectType(named) && !isInterfaceType(named)) return '{ __typename }';
  const fields = Object.values(named.getFields()).filter((f) => !hasRequiredArgs(f) && f.name !== UNKNOWN_FIELD);
  const scalars = fields
    .filter((f) => isScalarType(getNamedType(f.type)) || isEnumType(getNamedType(f.type)))
    .slice(0, MAX_SCALARS)
    .map((f) => f.name);
  if (scalars.length > 0) return `{ ${scalars.join(' ')} }`;
  if (depth < MAX_SELECTION_DEPTH) {
    const nested = fields.find((f) => isObjectType(getNamedType(f.type)));
    if (nested) return `{ ${nested.name} ${selectionFor(nested.type, depth + 1)} }`;
  }
  return '{ __typename }';
}

const capitalised = (name: string): string => name.charAt(0).toUpperCase() + name.slice(1);

/** The arguments (and the fields of input-object arguments) as declared inputs under `variables`. */
function inputsOf(field: GraphQLField<unknown, unknown>): InputField[] {
  const inputs: InputField[] = [];
  for (const arg of field.args) {
    inputs.push({
      in: 'body',
      name: arg.name,
      pointer: ['variables', arg.name],
      graphqlType: String(arg.type),
      required: isNonNullType(arg.type),
      ...describeInput(arg.type, arg.name),
    });
    // A list of input objects is sent with one item; only a single input object's fields are inputs of their own.
    const unwrapped = isNonNullType(arg.type) ? arg.type.ofType : arg.type;
    if (!isInputObjectType(unwrapped)) continue;
    for (const inner of Object.values(unwrapped.getFields())) {
      inputs.push({
        in: 'body',
        name: inner.name,
        pointer: ['variables', arg.name, inner.name],
        graphqlType: String(inner.type),
        required: isNonNullType(inner.type),
        ...describeInput(inner.type, inner.name),
      });
    }
  }
  return inputs;
}

export function fieldOperation(
  kind: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  context: FieldContext,
): Operation {
  const { endpoint } = context;
  const operationName = `${capitalised(kind)}${capitalised(field.name)}`;
  const variables: Record<string, unknown> = {};
  for (const arg of field.args) variables[arg.name] = valueFor(arg.type, arg.name);
  const declarations = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const call = field.args.length > 0 ? `(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const selection = selectionFor(field.type);
  const document = `${kind} ${operationName}${declarations ? `(${declarations})` : ''} { ${field.name}${call}${selection ? ` ${selection}` : ''} }`;
  const path = new URL(endpoint.url).pathname;
  const operationId = `${kind}.${field.name}`;
  const operation: Operation = {
    ...endpoint,
    id: `POST ${path} ${operationId}`,
    method: 'POST',
    path,
    body: jsonBody({ query: document, variables, operationName }),
    operationId,
    tags: [kind],
    ...(field.description ? { summary: field.description.split('\n')[0] } : {}),
    inputs: inputsOf(field),
    graphql: {
      endpoint: endpoint.url,
      kind,
      field: field.name,
      document,
      operationName,
      variables,
      returnType: String(field.type),
      arguments: field.args.map((a) => ({ name: a.name, type: String(a.type) })),
      schemaSource: context.schemaSource,
      ...(context.sdl ? { sdl: context.sdl } : {}),
    },
  };
  // A token argument carries the scan's JWT and is the field's credential, so the jwt.* checks attack it there.
  return withTokenArgument(operation, field);
}
