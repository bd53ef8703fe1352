/**
 * Values for GraphQL arguments, chosen by type and name (the same values on every run): scalars by the argument's
 * name (an `email` gets an address, a `url` a URL), enums their first value, lists one item, input objects their
 * required fields and their optional scalars, a few levels deep. Booleans are `false` (flags off: `force`, `all`).
 */
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type GraphQLInputType,
} from 'graphql';

const MAX_DEPTH = 3;

/** A string by the argument's name: what a form of the API would have sent. */
function stringFor(name: string): string {
  const n = name.toLowerCase();
  if (/e-?mail/.test(n)) return 'gatehouse-scan@example.com';
  if (/url|uri|link|href|webhook|callback|image|avatar|endpoint|feed|site/.test(n)) return 'https://example.com/';
  if (/pass(word)?|pwd|secret/.test(n)) return 'Gatehouse-Scan-1!';
  if (/host(name)?|domain/.test(n)) return 'example.com';
  if (/^port$/.test(n)) return '443';
  if (/phone|mobile/.test(n)) return '+15555550100';
  if (/date|time|since|until/.test(n)) return '2024-01-01T00:00:00Z';
  if (/path|file|filename|document/.test(n)) return 'readme.txt';
  if (/search|query|term|keyword|filter|^q$/.test(n)) return 'gatehouse';
  if (/token|jwt/.test(n)) return 'gatehouse-scan-token';
  if (/^(id|.*id)$/.test(n)) return '1';
  return 'gatehouse-scan';
}

function intFor(name: string): number {
  const n = name.toLowerCase();
  if (/^port$/.test(n)) return 443;
  if (/limit|first|last|size|count|take|per_?page/.test(n)) return 5;
  if (/offset|skip|after|before/.test(n)) return 0;
  return 1;
}

function scalarFor(typeName: string, name: string): unknown {
  switch (typeName) {
    case 'String':
      return stringFor(name);
    case 'ID':
      return /^(id|.*id)$/i.test(name) ? '1' : stringFor(name);
    case 'Int':
      return intFor(name);
    case 'Float':
      return 1.5;
    case 'Boolean':
      return false;
    default:
      break;
  }
  const t = typeName.toLowerCase();
  if (/datetime|timestamp|instant/.test(t)) return '2024-01-01T00:00:00Z';
  if (/^date$/.test(t)) return '2024-01-01';
  if (/^time$/.test(t)) return '00:00:00';
  if (/json|object|map/.test(t)) return {};
  if (/url|uri/.test(t)) return 'https://example.com/';
  if (/email/.test(t)) return 'gatehouse-scan@example.com';
  if (/uuid|guid/.test(t)) return '00000000-0000-4000-8000-000000000000';
  if (/long|bigint|int/.test(t)) return intFor(name);
  if (/decimal|float|double|number/.test(t)) return 1.5;
  if (/bool/.test(t)) return false;
  return stringFor(name);
}

/** A value of `type` for an argument or input field called `name`. */
export function valueFor(type: GraphQLInputType, name: string, depth = 0): unknown {
  if (isNonNullType(type)) return valueFor(type.ofType, name, depth);
  if (isListType(type)) return depth >= MAX_DEPTH ? [] : [valueFor(type.ofType, name, depth + 1)];
  if (isEnumType(type)) return type.getValues()[0]?.value ?? null;
  if (isScalarType(type)) return scalarFor(type.name, name);
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    if (depth >= MAX_DEPTH) return value;
    for (const field of Object.values(type.getFields())) {
      const required = isNonNullType(field.type) && field.defaultValue === undefined;
      const scalarLike = isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type));
      if (required || scalarLike) value[field.name] = valueFor(field.type, field.name, depth + 1);
    }
    return value;
  }
  return null;
}

/** JSON-schema-like type and format of an input, for `InputField` (checks read `format: uri`, `type: string`). */
export function describeInput(type: GraphQLInputType, name: string): { type: string; format?: string } {
  if (isNonNullType(type)) return describeInput(type.ofType, name);
  if (isListType(type)) return { type: 'array' };
  if (isInputObjectType(type)) return { type: 'object' };
  if (isEnumType(type)) return { type: 'string' };
  const scalar = getNamedType(type).name;
  const t = scalar.toLowerCase();
  if (scalar === 'Int' || /long|bigint/.test(t)) return { type: 'integer' };
  if (scalar === 'Float' || /decimal|double/.test(t)) return { type: 'number' };
  if (scalar === 'Boolean') return { type: 'boolean' };
  if (/url|uri/.test(t)) return { type: 'string', format: 'uri' };
  if (/email/.test(t)) return { type: 'string', format: 'email' };
  if (/datetime|timestamp/.test(t)) return { type: 'string', format: 'date-time' };
  if (/uuid/.test(t)) return { type: 'string', format: 'uuid' };
  if (/json|object|map/.test(t)) return { type: 'object' };
  return { type: 'string' };
}
