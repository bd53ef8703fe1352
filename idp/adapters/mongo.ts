/**
 * MongoDB store (`--database-url`): one collection per oidc-provider model (`oidc_<model>`), payloads kept as JSON
 * text (claim and resource names hold dots, which some MongoDB-wire servers refuse as field names), the lookup
 * fields (uid, userCode, grantId) and expiry as indexed top-level fields, and shared state in `idp_state`.
 * Expiry is checked on every read, so correctness never depends on the TTL monitor.
 */
import mongoose from 'mongoose';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { watchMonitors, type MonitorWatchdogOptions } from '../../lib/mongo-monitor-watchdog.js';
import { idpError } from '../errors.js';
import type { IdpStore } from './store.js';

type Db = mongoose.mongo.Db;

interface ModelDoc {
  _id: string;
  payload: string;
  expiresAt?: Date;
  uid?: string;
  userCode?: string;
  grantId?: string;
  consumed?: number;
}

const PING_TIMEOUT_MS = 2000;

function collectionName(model: string): string {
  return `oidc_${model.replace(/[A-Z]/g, (c, i: number) => (i ? '_' : '') + c.toLowerCase())}`;
}

function toPayload(doc: ModelDoc | null): AdapterPayload | undefined {
  if (!doc) return undefined;
  if (doc.expiresAt && doc.expiresAt.getTime() <= Date.now()) return undefined;
  const payload = JSON.parse(doc.payload) as AdapterPayload;
  if (doc.consumed !== undefined) payload.consumed = doc.consumed;
  return payload;
}

function mongoAdapter(db: Db, model: string, ready: () => Promise<void>): Adapter {
  const coll = db.collection<ModelDoc>(collectionName(model));
  const findOne = async (filter: Partial<ModelDoc>) => {
    await ready();
    return toPayload(await coll.findOne(filter));
  };
  return {
    async upsert(id, payload, expiresIn) {
      await ready();
      const doc: Omit<ModelDoc, '_id'> = { payload: JSON.stringify(payload) };
      if (expiresIn) doc.expiresAt = new Date(Date.now() + expiresIn * 1000);
      for (const field of ['uid', 'userCode', 'grantId'] as const) {
        if (typeof payload[field] === 'string') doc[field] = payload[field];
      }
      await coll.replaceOne({ _id: id }, doc, { upsert: true });
    },
    find: (id) => findOne({ _id: id }),
    findByUid: (uid) => findOne({ uid }),
    findByUserCode: (userCode) => findOne({ userCode }),
    async consume(id) {
      await ready();
      await coll.updateOne({ _id: id }, { $set: { consumed: Math.floor(Date.now() / 1000) } });
    },
    async destroy(id) {
      await ready();
      await coll.deleteOne({ _id: id });
    },
    async revokeByGrantId(grantId) {
      await ready();
      await coll.deleteMany({ grantId });
    },
  };
}

async function ensureIndexes(db: Db, model: string): Promise<void> {
  const coll = db.collection(collectionName(model));
  await Promise.all(['uid', 'userCode', 'grantId'].map((field) => coll.createIndex({ [field]: 1 }, { sparse: true })));
  // TTL clean-up is housekeeping only (reads check expiry); servers without TTL support just keep the rows longer.
  await coll.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0 }).catch(() => undefined);
}

export interface MongoStoreOptions {
  serverSelectionTimeoutMS?: number;
  /** Database name instead of the URL's (tenants keep their state in `<db>_<tenant>`). */
  database?: string;
  /** Told when a server monitor was stuck and restarted (lib/mongo-monitor-watchdog.ts), to log it. */
  onStuckMonitor?: MonitorWatchdogOptions['onStuck'];
}

/**
 * The store without waiting for the server: operations connect on first use (and fail while the server is away),
 * so an IdP can start, answer /readyz 503 and become ready once the database appears.
 */
export function openMongoStore(url: string, options: MongoStoreOptions = {}): IdpStore {
  const timeout = options.serverSelectionTimeoutMS ?? 5000;
  const client = new mongoose.mongo.MongoClient(url, { serverSelectionTimeoutMS: timeout, connectTimeoutMS: timeout });
  // A heartbeat that never ends would keep the IdP unready after the database came back (lib/mongo-monitor-watchdog.ts).
  const stopWatching = watchMonitors(client, {
    connectTimeoutMS: timeout,
    heartbeatFrequencyMS: 10_000,
    onStuck: options.onStuckMonitor,
  });
  const db = client.db(options.database);
  const indexed = new Map<string, Promise<void>>();
  const state = db.collection<{ _id: string; value: string }>('idp_state');

  return {
    kind: 'mongodb',
    adapter(model: string) {
      // Indexes are created before a model's first operation; a failure (database briefly down) is retried
      // by the next operation instead of breaking the model for the life of the process.
      const ready = () => {
        let pending = indexed.get(model);
        if (!pending) {
          pending = ensureIndexes(db, model);
          indexed.set(model, pending);
          pending.catch(() => indexed.delete(model));
        }
        return pending;
      };
      return mongoAdapter(db, model, ready);
    },
    async initState<T>(name: string, value: T): Promise<T> {
      try {
        await state.insertOne({ _id: name, value: JSON.stringify(value) });
        return value;
      } catch (error) {
        if ((error as { code?: number }).code !== 11000) throw error;
        const existing = await state.findOne({ _id: name });
        if (!existing) throw error;
        return JSON.parse(existing.value) as T;
      }
    },
    async setState<T>(name: string, value: T): Promise<void> {
      await state.replaceOne({ _id: name }, { value: JSON.stringify(value) }, { upsert: true });
    },
    async clear() {
      const collections = await db.listCollections({}, { nameOnly: true }).toArray();
      await Promise.all(
        collections.filter((c) => c.name.startsWith('oidc_')).map((c) => db.collection(c.name).deleteMany({})),
      );
    },
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(idpError('database_unavailable', `database did not answer within ${PING_TIMEOUT_MS} ms`)),
          PING_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([db.command({ ping: 1 }), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      stopWatching();
      await client.close();
    },
  };
}

/** Connects (fails fast when the server cannot be reached) and returns the store. */
export async function createMongoStore(url: string, options: MongoStoreOptions = {}): Promise<IdpStore> {
  const store = openMongoStore(url, options);
  try {
    await connectOrThrow(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** Resolves once the database answers; rejects with the driver's reason (ECONNREFUSED, server selection…). */
async function connectOrThrow(store: IdpStore): Promise<void> {
  await store.initState('started', true);
}
