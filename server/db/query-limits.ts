/**
 * The server-side time limit of every query (`maxTimeMS`, DB_QUERY_TIMEOUT_MS): a slow query is cut off rather than
 * holding a request. Set once per connection when it is opened (connect.ts); every repository reads it from its
 * connection, so two stores in one process (tests, the bench) keep their own.
 */
import type { Connection } from 'mongoose';

export const DEFAULT_QUERY_TIMEOUT_MS = 5000;

const timeouts = new WeakMap<Connection, number>();

export function setQueryTimeout(connection: Connection, ms: number): void {
  timeouts.set(connection, ms);
}

export function queryTimeoutMs(connection: Connection): number {
  return timeouts.get(connection) ?? DEFAULT_QUERY_TIMEOUT_MS;
}
