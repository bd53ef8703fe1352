/**
 * A tiny MongoDB-style filter matcher for the demo API's user store: plain values match by equality, objects whose
 * keys start with `$` are query operators (`$eq $ne $gt $gte $lt $lte $in $nin $regex $exists`), an unknown operator
 * fails like MongoDB does. The vulnerable twin hands request bodies to it unchecked, which is the whole bug.
 */
type Doc = Record<string, unknown>;

class MongoFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MongoServerError';
  }
}

const isOperatorObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).some((k) => k.startsWith('$'));

function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function operator(value: unknown, name: string, argument: unknown): boolean {
  switch (name) {
    case '$eq':
      return value === argument;
    case '$ne':
      return value !== argument && !(value === undefined && argument === null);
    case '$gt':
      return (compare(value, argument) ?? -1) > 0;
    case '$gte':
      return (compare(value, argument) ?? -1) >= 0;
    case '$lt':
      return (compare(value, argument) ?? 1) < 0;
    case '$lte':
      return (compare(value, argument) ?? 1) <= 0;
    case '$in':
      return Array.isArray(argument) && argument.includes(value);
    case '$nin':
      return Array.isArray(argument) && !argument.includes(value);
    case '$exists':
      return (value !== undefined) === Boolean(argument);
    case '$regex':
      return typeof value === 'string' && new RegExp(String(argument)).test(value);
    default:
      throw new MongoFilterError(`unknown operator: ${name}`);
  }
}

export function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([field, condition]) => {
    const value = doc[field];
    if (isOperatorObject(condition))
      return Object.entries(condition).every(([name, argument]) => operator(value, name, argument));
    return JSON.stringify(value) === JSON.stringify(condition);
  });
}

export function findOne<T extends Doc>(docs: readonly T[], filter: Doc): T | undefined {
  return docs.find((doc) => matches(doc, filter));
}
