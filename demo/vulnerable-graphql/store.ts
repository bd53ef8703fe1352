/**
 * The GraphQL demo's in-memory data: the REST demo's users, tokens, orders and product table
 * (demo/vulnerable-api/store.ts) with a QA account (qa-account.ts), plus notes, feed imports and session JWTs
 * (session-tokens.ts). `dump` is what a test compares before and after a scan.
 */
import { createStore, type Store } from '../vulnerable-api/store.js';
import { addQaAccount } from './qa-account.js';
import { createSessionTokens, type SessionTokens } from './session-tokens.js';

interface Note {
  id: string;
  userId: string;
  title: string;
  body: string;
}

interface FeedImport {
  id: string;
  userId: string;
  url: string;
  status: number;
  bytes: number;
}

export interface GraphqlStore extends Store {
  notes: Note[];
  imports: FeedImport[];
  /** Session JWTs, the other kind of Bearer token (session-tokens.ts). */
  sessions: SessionTokens;
}

export function createGraphqlStore(secure: boolean): GraphqlStore {
  const store = {
    ...createStore(secure),
    notes: [{ id: 'n1', userId: 'u1', title: 'Gift ideas', body: 'A lamp for Bob' }],
    imports: [],
    sessions: createSessionTokens(secure),
  };
  addQaAccount(store, secure);
  return store;
}

/** Everything a scan could change, as plain JSON (tokens excluded: a login issues one). */
export function dump(store: GraphqlStore): Record<string, unknown[]> {
  return JSON.parse(
    JSON.stringify({
      users: store.users,
      orders: store.orders,
      products: store.tables.products,
      notes: store.notes,
      imports: store.imports,
    }),
  ) as Record<string, unknown[]>;
}
