/**
 * Restarts a server monitor whose heartbeat never ends. Seen with the mongodb driver 7.8 on Node 24 and 20 when the
 * database process is killed under traffic (about one kill in ten on a loaded machine; the fault suite): a heartbeat
 * begun as the monitor's connection died neither succeeds nor fails — most likely its write awaits a 'drain' that a
 * destroyed socket never emits — so the server stays Unknown, the pool stays paused and every operation fails server
 * selection, long after the database is back. No heartbeat can legitimately run longer than its socket timeout
 * (connectTimeoutMS, plus heartbeatFrequencyMS when streaming), so one running well past that is stuck: its monitor
 * is closed and connected again, which starts a fresh check at once.
 *
 * Used by the registration service's store and the IdP's MongoDB storage.
 *
 * The restart reaches into the driver's topology (not public API); when that shape is not there, the watchdog only
 * reports the stuck heartbeat (`onStuck`), so a driver update cannot break the service through it.
 */
import type { mongo } from 'mongoose';
import type { Logger } from './logger.js';

export interface MonitorWatchdogOptions {
  connectTimeoutMS: number;
  heartbeatFrequencyMS: number;
  /** Told about each restart (and about a stuck monitor it could not restart). */
  onStuck?: (address: string, restarted: boolean) => void;
  /** How often started heartbeats are looked at. */
  intervalMs?: number;
}

/** An `onStuck` that warns on `logger` (the service's store and the IdP's log the same line). */
export function warnOnStuck(logger: Pick<Logger, 'warn'>): NonNullable<MonitorWatchdogOptions['onStuck']> {
  return (address, restarted) =>
    logger.warn(
      { store: 'mongo', address },
      restarted
        ? 'database monitor stuck (a heartbeat never ended); restarted it'
        : 'database monitor stuck (a heartbeat never ended) and could not be restarted',
    );
}

interface MonitorLike {
  close(): void;
  connect(): void;
}

/** The monitor of the server at `address`, when the driver's internals still have the expected shape. */
export function monitorOf(client: mongo.MongoClient, address: string): MonitorLike | undefined {
  const servers = (client as unknown as { topology?: { s?: { servers?: Map<string, { monitor?: unknown }> } } })
    .topology?.s?.servers;
  const monitor = servers?.get(address)?.monitor as Partial<MonitorLike> | undefined;
  return typeof monitor?.close === 'function' && typeof monitor.connect === 'function'
    ? (monitor as MonitorLike)
    : undefined;
}

/** Watches the client's heartbeats; returns a function that stops watching. */
export function watchMonitors(client: mongo.MongoClient, options: MonitorWatchdogOptions): () => void {
  // Twice the longest a heartbeat may take, so a slow but live check is never cut short.
  const stuckAfterMs = 2 * (options.connectTimeoutMS + options.heartbeatFrequencyMS);
  const running = new Map<string, number>(); // address → when its heartbeat started
  const started = (event: mongo.ServerHeartbeatStartedEvent) => running.set(event.connectionId, Date.now());
  const ended = (event: mongo.ServerHeartbeatSucceededEvent | mongo.ServerHeartbeatFailedEvent) =>
    running.delete(event.connectionId);
  client.on('serverHeartbeatStarted', started);
  client.on('serverHeartbeatSucceeded', ended);
  client.on('serverHeartbeatFailed', ended);

  const timer = setInterval(() => {
    const now = Date.now();
    for (const [address, since] of running) {
      if (now - since < stuckAfterMs) continue;
      running.delete(address);
      const monitor = monitorOf(client, address);
      if (monitor) {
        monitor.close();
        monitor.connect();
      }
      options.onStuck?.(address, monitor !== undefined);
    }
  }, options.intervalMs ?? 1000);
  timer.unref();

  return () => {
    clearInterval(timer);
    client.off('serverHeartbeatStarted', started);
    client.off('serverHeartbeatSucceeded', ended);
    client.off('serverHeartbeatFailed', ended);
  };
}
