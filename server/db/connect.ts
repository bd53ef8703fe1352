/**
 * Opens the one mongoose connection of a store (docs/architecture.md §R.9): fail fast instead of buffering, indexes never
 * built at boot (`npm run db:migrate` does that), `sanitizeFilter` on every query of the connection.
 */
import mongoose, { type Connection } from 'mongoose';
import { watchMonitors, type MonitorWatchdogOptions } from '../../lib/mongo-monitor-watchdog.js';
import { DEFAULT_QUERY_TIMEOUT_MS, setQueryTimeout } from './query-limits.js';

const CONNECT_TIMEOUT_MS = 2000;
const HEARTBEAT_FREQUENCY_MS = 2000;

export interface MongoConnectOptions {
  /** Database name; defaults to the one in the URI. Tests use one per run. */
  dbName?: string;
  /** How long an operation waits for a reachable server before failing (never a hang). Default 2000 ms. */
  serverSelectionTimeoutMS?: number;
  /** The server-side limit of every query (DB_QUERY_TIMEOUT_MS, query-limits.ts). Default 5000 ms. */
  queryTimeoutMs?: number;
  /** Told when a server monitor was stuck and restarted (lib/mongo-monitor-watchdog.ts). */
  onStuckMonitor?: MonitorWatchdogOptions['onStuck'];
}

/** A socket silent this much longer than the query limit is dropped: the server cuts a slow query off first. */
const SOCKET_MARGIN_MS = 2000;

export async function connectMongo(uri: string, options: MongoConnectOptions = {}): Promise<Connection> {
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const connection = mongoose.createConnection(uri, {
    dbName: options.dbName,
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 2000,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    // A socket silent for this long is dropped, so a hung (not down) server cannot hold a request forever.
    socketTimeoutMS: queryTimeoutMs + SOCKET_MARGIN_MS,
    heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
    maxPoolSize: 20,
    // Commands fail at once while disconnected instead of queuing behind a dead server.
    bufferCommands: false,
    autoIndex: false,
    autoCreate: false,
    // Operator objects a caller smuggles into a filter value are wrapped in $eq; the repositories mark their own
    // operators with mongoose.trusted() (docs/architecture.md §R.8).
    sanitizeFilter: true,
  });
  setQueryTimeout(connection, queryTimeoutMs);
  // Watching from before the first heartbeat: a database killed at any time must not leave the client stuck.
  const stopWatching = watchMonitors(connection.getClient(), {
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
    onStuck: options.onStuckMonitor,
  });
  connection.once('close', stopWatching);
  try {
    await connection.asPromise();
  } catch (error) {
    stopWatching();
    await connection.close().catch(() => undefined);
    throw error;
  }
  return connection;
}
