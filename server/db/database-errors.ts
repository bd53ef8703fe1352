/**
 * Database failures as the client should see them (docs/architecture.md §1.7): an unreachable or timed-out database is
 * 503 `unavailable` with `Retry-After`, never a 500 carrying driver text. Other errors pass through unchanged
 * (they are bugs, and the error handler logs them as a generic 500).
 */
import mongoose from 'mongoose';
import { apiError } from '../errors.js';
import type { AppError } from '../../lib/app-error.js';

/** Seconds a client should wait before retrying while the database is down. */
const DATABASE_RETRY_AFTER_SECONDS = 2;

const UNAVAILABLE_NAMES = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoOperationTimeoutError',
  'MongoPoolClearedError',
  'MongoExpiredSessionError',
  // The driver closed the server or its pool under the operation (a killed database: the topology drops it).
  'MongoServerClosedError',
  'MongoPoolClosedError',
  'MongoWaitQueueTimeoutError',
  'MongoStalePrimaryError',
  'MongoUnexpectedServerResponseError',
]);
/**
 * MaxTimeMSExpired, the codes a server returns while it is stepping down or shutting down, the network codes the
 * driver itself retries on (HostUnreachable, HostNotFound, NetworkTimeout, ExceededTimeLimit, SocketException), and
 * WriteConcernFailed (64: the write is on the primary but not yet on enough members — its outcome unknown, retry).
 */
const UNAVAILABLE_CODES = new Set([6, 7, 50, 64, 89, 91, 189, 262, 9001, 11600, 11602, 10107, 13435, 13436]);
/**
 * Socket errors the driver let through unwrapped: a write on a connection the database closed as it died surfaced as
 * a plain `Error` with code EPIPE ("This socket has been ended by the other party") in the fault suite. Only calls to
 * the database are mapped here, so a socket error is the database's.
 */
const SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTCONN']);
/** Labels the driver puts on errors that a retry may not meet (a write may retry; the server said so). */
const UNAVAILABLE_LABELS = ['RetryableWriteError', 'ResetPool'];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_NAMES.has(error.name)) return true;
  if (error instanceof mongoose.mongo.MongoNetworkError) return true;
  if (error instanceof mongoose.mongo.MongoServerSelectionError) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) return true;
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  if (error instanceof mongoose.mongo.MongoError && UNAVAILABLE_LABELS.some((label) => error.hasErrorLabel(label)))
    return true;
  // With bufferCommands off, mongoose refuses commands while the connection is closed.
  return (
    error.name === 'MongooseError' &&
    /before initial connection|connection .* closed|Client must be connected/i.test(error.message)
  );
}

export function databaseUnavailable(cause: unknown): AppError {
  return apiError('unavailable', 'The database is unavailable; retry shortly.', {
    headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    cause,
  });
}

/** Rethrows an unreachable-database error as 503 `unavailable`; anything else unchanged. */
export function rethrowDatabaseError(error: unknown): never {
  throw isDatabaseUnavailable(error) ? databaseUnavailable(error) : error;
}

/** Wraps every method of a repository so its database failures surface as 503 `unavailable`. */
export function guardRepository<T extends object>(repository: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(repository)) {
    guarded[name] =
      typeof member === 'function'
        ? (...args: unknown[]) =>
            (member as (...a: unknown[]) => Promise<unknown>).apply(repository, args).catch(rethrowDatabaseError)
        : member;
  }
  return guarded as T;
}
