/**
 * Account names a GraphQL schema lets a check read: the caller's own (a `me`-like root field) and the accounts a list
 * field answers (`users { username }`). The account field is the one the sign-in takes (`login(username, …)` reads
 * `User.username`), else a usual one (username, login, email, handle). Only that scalar is selected: nothing else
 * of the accounts is asked for.
 */
import {
  getNamedType,
  getNullableType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import type { Operation } from '../../scanner/api.js';
import { parseAnswer } from '../../scanner/graphql/graphql-request.js';
import { schemaOf } from './graphql-probe.js';

const ME = /^(me|viewer|current_?user|whoami|self|my_?profile|my_?account|profile|account)$/i;
const ACCOUNTS = /user|account|member|people|person|customer|employee|staff/i;
const ACCOUNT_FIELDS = ['username', 'userName', 'login', 'email', 'handle'];

/** A document that reads account names, and where its answer holds them. */
export interface AccountQuery {
  document: string;
  field: string;
  accountField: string;
}

const callable = (field: GraphQLField<unknown, unknown>): boolean =>
  field.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined);

function accountFieldOf(type: GraphQLObjectType, preferred: string): string | undefined {
  const fields = type.getFields();
  return [preferred, ...ACCOUNT_FIELDS].find((name) => fields[name] && isScalarType(getNamedType(fields[name].type)));
}

/** The caller's own account (`me { username }`) and the accounts list (`users { username }`) the schema offers. */
export function accountQueries(operation: Operation, userInput: string): { me?: AccountQuery; list?: AccountQuery } {
  const query = schemaOf(operation)?.getQueryType();
  const found: { me?: AccountQuery; list?: AccountQuery } = {};
  for (const field of Object.values(query?.getFields() ?? {})) {
    const type = getNamedType(field.type);
    if (!callable(field) || !isObjectType(type)) continue;
    const accountField = accountFieldOf(type, userInput);
    if (!accountField) continue;
    const list = isListType(getNullableType(field.type));
    const query = { document: `query { ${field.name} { ${accountField} } }`, field: field.name, accountField };
    if (!list && !found.me && ME.test(field.name)) found.me = query;
    if (list && !found.list && ACCOUNTS.test(field.name)) found.list = query;
  }
  return found;
}

/** The account names an answer to `query` holds. */
export function accountNames(body: string, query: AccountQuery): string[] {
  const value = parseAnswer(body)?.data?.[query.field];
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  return items
    .map((item) =>
      item && typeof item === 'object' ? (item as Record<string, unknown>)[query.accountField] : undefined,
    )
    .filter((name): name is string => typeof name === 'string' && name !== '');
}
