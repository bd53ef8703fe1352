/**
 * D1 store for the edge worker: every oidc-provider model in one `idp_oidc` table (payload as JSON text, the
 * lookup fields uid, user_code and grant_id and the expiry as indexed columns) and shared state (signing keys,
 * cookie keys, the generated client) in `idp_state`, so every isolate on one database signs with the same keys.
 * The schema is created on first use (idempotent); expiry is checked on every read, rows are swept now and then.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { IdpStore } from '../adapters/store.js';
import { idpError } from '../errors.js';
import type { D1Database } from './d1-types.js';

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS idp_oidc (
    model TEXT NOT NULL, id TEXT NOT NULL, payload TEXT NOT NULL,
    uid TEXT, user_code TEXT, grant_id TEXT, expires_at INTEGER, consumed INTEGER,
    PRIMARY KEY (model, id))`,
  'CREATE INDEX IF NOT EXISTS idp_oidc_uid ON idp_oidc (model, uid)',
  'CREATE INDEX IF NOT EXISTS idp_oidc_user_code ON idp_oidc (model, user_code)',
  'CREATE INDEX IF NOT EXISTS idp_oidc_grant_id ON idp_oidc (grant_id)',
  'CREATE INDEX IF NOT EXISTS idp_oidc_expires_at ON idp_oidc (expires_at)',
  'CREATE TABLE IF NOT EXISTS idp_state (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
];

/** One write in this many also deletes expired rows (housekeeping only: reads never return them). */
const SWEEP_EVERY = 200;

interface Row {
  payload: string;
  consumed: number | null;
}

function toPayload(row: Row | null): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  if (row.consumed !== null) payload.consumed = row.consumed;
  return payload;
}

const nowMs = () => Date.now();

export function createD1Store(db: D1Database): IdpStore {
  let schema: Promise<void> | undefined;
  let writes = 0;
  /** Creates the tables once per store; a failure (database briefly unreachable) is retried by the next call. */
  const ready = (): Promise<void> => {
    if (!schema) {
      schema = db.batch(SCHEMA.map((sql) => db.prepare(sql))).then(() => undefined);
      schema.catch(() => (schema = undefined));
    }
    return schema;
  };

  function adapter(model: string): Adapter {
    const findWhere = async (column: 'id' | 'uid' | 'user_code', value: string) => {
      await ready();
      const row = await db
        .prepare(
          `SELECT payload, consumed FROM idp_oidc WHERE model = ? AND ${column} = ? AND (expires_at IS NULL OR expires_at > ?) LIMIT 1`,
        )
        .bind(model, value, nowMs())
        .first<Row>();
      return toPayload(row);
    };
    return {
      async upsert(id, payload, expiresIn) {
        await ready();
        const text = (field: string) => (typeof payload[field] === 'string' ? payload[field] : null);
        const statements = [
          db
            .prepare(
              `INSERT INTO idp_oidc (model, id, payload, uid, user_code, grant_id, expires_at, consumed) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)
               ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, uid = excluded.uid, user_code = excluded.user_code,
               grant_id = excluded.grant_id, expires_at = excluded.expires_at, consumed = NULL`,
            )
            .bind(
              model,
              id,
              JSON.stringify(payload),
              text('uid'),
              text('userCode'),
              text('grantId'),
              expiresIn ? nowMs() + expiresIn * 1000 : null,
            ),
        ];
        if (++writes % SWEEP_EVERY === 0)
          statements.push(db.prepare('DELETE FROM idp_oidc WHERE expires_at <= ?').bind(nowMs()));
        await db.batch(statements);
      },
      find: (id) => findWhere('id', id),
      findByUid: (uid) => findWhere('uid', uid),
      findByUserCode: (userCode) => findWhere('user_code', userCode),
      async consume(id) {
        await ready();
        await db
          .prepare('UPDATE idp_oidc SET consumed = ? WHERE model = ? AND id = ?')
          .bind(Math.floor(nowMs() / 1000), model, id)
          .run();
      },
      async destroy(id) {
        await ready();
        await db.prepare('DELETE FROM idp_oidc WHERE model = ? AND id = ?').bind(model, id).run();
      },
      async revokeByGrantId(grantId) {
        await ready();
        // Every model of the grant, like the other stores (oidc-provider calls this once per token model).
        await db.prepare('DELETE FROM idp_oidc WHERE grant_id = ?').bind(grantId).run();
      },
    };
  }

  return {
    kind: 'd1',
    adapter,
    async initState<T>(name: string, value: T): Promise<T> {
      await ready();
      // INSERT … DO NOTHING then read back: concurrent isolates all end up with the first writer's value.
      const [, read] = await db.batch([
        db
          .prepare('INSERT INTO idp_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING')
          .bind(name, JSON.stringify(value)),
        db.prepare('SELECT value FROM idp_state WHERE name = ?').bind(name),
      ]);
      const row = read.results[0] as { value: string } | undefined;
      if (!row) throw idpError('database_unavailable', `state record "${name}" could not be stored in D1`);
      return JSON.parse(row.value) as T;
    },
    async ping() {
      const row = await db.prepare('SELECT 1 AS one').first<{ one: number }>();
      if (row?.one !== 1) throw idpError('database_unavailable', 'D1 did not answer SELECT 1');
    },
    async close() {
      // The binding belongs to the runtime; nothing to release.
    },
  };
}
