/**
 * The monitor watchdog: a heartbeat that never ends gets its monitor closed and connected again; heartbeats that
 * end in time are left alone; a driver without the expected internals is only reported.
 */
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { mongo } from 'mongoose';
import { connectMongo } from '../../server/db/connect.js';
import { monitorOf, watchMonitors } from '../../lib/mongo-monitor-watchdog.js';
import { describeWithMongo, uniqueDbName } from '../server/mongo/mongo-test-db.js';

const ADDRESS = '127.0.0.1:27017';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client-shaped emitter whose topology holds one server with a monitor that records what it is asked. */
function fakeClient(withMonitor = true) {
  const calls: string[] = [];
  const monitor = { close: () => calls.push('close'), connect: () => calls.push('connect') };
  const client = Object.assign(new EventEmitter(), {
    topology: { s: { servers: new Map([[ADDRESS, withMonitor ? { monitor } : {}]]) } },
  });
  return { client: client as unknown as mongo.MongoClient, emitter: client as EventEmitter, calls };
}

function watch(client: mongo.MongoClient, stuck: Array<[string, boolean]>) {
  return watchMonitors(client, {
    connectTimeoutMS: 20,
    heartbeatFrequencyMS: 20,
    intervalMs: 5,
    onStuck: (address, restarted) => stuck.push([address, restarted]),
  });
}

describe('watchMonitors', () => {
  it('restarts the monitor of a heartbeat that neither succeeded nor failed long past its timeout', async () => {
    const { client, emitter, calls } = fakeClient();
    const stuck: Array<[string, boolean]> = [];
    const stop = watch(client, stuck);
    emitter.emit('serverHeartbeatStarted', { connectionId: ADDRESS });
    await sleep(150);
    stop();
    expect(calls).to.deep.equal(['close', 'connect']);
    expect(stuck).to.deep.equal([[ADDRESS, true]]);
  });

  it('leaves monitors alone whose heartbeats end in time, whether they succeed or fail', async () => {
    const { client, emitter, calls } = fakeClient();
    const stuck: Array<[string, boolean]> = [];
    const stop = watch(client, stuck);
    for (let i = 0; i < 10; i += 1) {
      emitter.emit('serverHeartbeatStarted', { connectionId: ADDRESS });
      await sleep(10);
      emitter.emit(i % 2 ? 'serverHeartbeatSucceeded' : 'serverHeartbeatFailed', { connectionId: ADDRESS });
    }
    await sleep(100);
    stop();
    expect(calls).to.deep.equal([]);
    expect(stuck).to.deep.equal([]);
  });

  it('only reports a stuck heartbeat when the driver has no monitor where one is expected', async () => {
    const { client, emitter } = fakeClient(false);
    const stuck: Array<[string, boolean]> = [];
    const stop = watch(client, stuck);
    emitter.emit('serverHeartbeatStarted', { connectionId: ADDRESS });
    await sleep(150);
    stop();
    expect(stuck).to.deep.equal([[ADDRESS, false]]);
  });

  it('stops watching when told to', async () => {
    const { client, emitter, calls } = fakeClient();
    const stop = watch(client, []);
    stop();
    emitter.emit('serverHeartbeatStarted', { connectionId: ADDRESS });
    await sleep(150);
    expect(calls).to.deep.equal([]);
    expect(emitter.listenerCount('serverHeartbeatStarted')).to.equal(0);
  });
});

describeWithMongo('watchMonitors on the real driver', (uri) => {
  it('finds the monitor of the server the driver reports heartbeats for (the internals it restarts are there)', async () => {
    const connection = await connectMongo(uri, { dbName: uniqueDbName() });
    try {
      const client = connection.getClient();
      const address = await new Promise<string>((resolve) =>
        client.once('serverHeartbeatSucceeded', (event: mongo.ServerHeartbeatSucceededEvent) =>
          resolve(event.connectionId),
        ),
      );
      expect(monitorOf(client, address), `a monitor for ${address}`).to.not.equal(undefined);
    } finally {
      await connection.close();
    }
  });
});
