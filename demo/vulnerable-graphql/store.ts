/**
 * The GraphQL demo's in-memory data: the REST demo's users, tokens, orders and product table
 * (demo/vulnerable-api/store.ts), plus notes and feed imports. `dump` is what a test compares before and after a scan.
 */
import { createStore, type Store } from '../vulnerable-api/store.js';

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
}

export function createGraphqlStore(secure: boolean): GraphqlStore {
  return {
    ...createStore(secure),
    notes: [{ id: 'n1', userId: 'u1', title: 'Gift ideas', body: 'A lamp for Bob' }],
    imports: [],
  };
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
