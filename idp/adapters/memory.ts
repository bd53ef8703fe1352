/**
 * In-process store: one Map per model with expiry, plus the lookups oidc-provider needs (session by uid, device
 * code by user code, tokens by grant). State belongs to the store instance, so two IdPs in one process never share it.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { IdpStore } from './store.js';

interface Entry {
  payload: AdapterPayload;
  expiresAt?: number;
}

const SWEEP_EVERY = 1000;

// `Date.now()` read at each call (not captured once): the testing API's clock offset moves expiry here too.
export function createMemoryStore(now: () => number = () => Date.now()): IdpStore {
  const models = new Map<string, Map<string, Entry>>();
  const grants = new Map<string, Set<string>>(); // grantId → "Model:id"
  const state = new Map<string, unknown>();
  let writes = 0;

  /** Drops expired entries now and then, so a long test session does not keep every token it ever issued. */
  function sweep(): void {
    const at = now();
    for (const t of models.values())
      for (const [id, entry] of t) if (entry.expiresAt !== undefined && entry.expiresAt <= at) t.delete(id);
    for (const [grantId, keys] of grants) {
      for (const key of keys) {
        const cut = key.indexOf(':');
        if (!models.get(key.slice(0, cut))?.has(key.slice(cut + 1))) keys.delete(key);
      }
      if (keys.size === 0) grants.delete(grantId);
    }
  }

  function table(name: string): Map<string, Entry> {
    let t = models.get(name);
    if (!t) models.set(name, (t = new Map<string, Entry>()));
    return t;
  }

  function live(t: Map<string, Entry>, id: string): Entry | undefined {
    const entry = t.get(id);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= now()) {
      t.delete(id);
      return undefined;
    }
    return entry;
  }

  function adapter(name: string): Adapter {
    const t = table(name);
    const findBy = (field: 'uid' | 'userCode', value: string) => {
      for (const [id, entry] of t) if (entry.payload[field] === value) return live(t, id)?.payload;
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        if (++writes % SWEEP_EVERY === 0) sweep();
        t.set(id, { payload: structuredClone(payload), expiresAt: expiresIn ? now() + expiresIn * 1000 : undefined });
        if (typeof payload.grantId === 'string') {
          let set = grants.get(payload.grantId);
          if (!set) grants.set(payload.grantId, (set = new Set()));
          set.add(`${name}:${id}`);
        }
      },
      async find(id) {
        const entry = live(t, id);
        return entry ? structuredClone(entry.payload) : undefined;
      },
      async findByUid(uid) {
        return findBy('uid', uid);
      },
      async findByUserCode(userCode) {
        return findBy('userCode', userCode);
      },
      async consume(id) {
        const entry = live(t, id);
        if (entry) entry.payload.consumed = Math.floor(now() / 1000);
      },
      async destroy(id) {
        t.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const key of grants.get(grantId) ?? []) {
          const [model, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
          models.get(model)?.delete(id);
        }
        grants.delete(grantId);
      },
    };
  }

  return {
    kind: 'memory',
    adapter,
    async initState<T>(name: string, value: T): Promise<T> {
      if (!state.has(name)) state.set(name, value);
      return state.get(name) as T;
    },
    async setState<T>(name: string, value: T): Promise<void> {
      state.set(name, value);
    },
    async clear() {
      models.clear();
      grants.clear();
    },
    async close() {
      models.clear();
      grants.clear();
    },
  };
}
