/**
 * The service under database faults: a bounded create load with idempotent retries (the same
 * Idempotency-Key and body after a 503, a 409 in flight or a lost connection) while the test's own FerretDB is
 * stalled (SIGSTOP past the driver's socket timeout, then SIGCONT) and then killed (SIGKILL) and restarted on the
 * same data. Counted afterwards, from the database itself: acknowledged creates that are missing (0), creates
 * stored twice (0), stored registrations without their audit entry (0), 5xx answers other than 503 (0), and the
 * time from the end of each fault to the next acknowledged create. The service runs as `main.ts` runs it: with the
 * internal surface's outbox drain, which delivers the audit entries a fault kept from being delivered inline.
 *
 * FAULTS_TRACE=1 prints every answer and every driver heartbeat as it happens (the driver's heartbeats are printed
 * anyway when the service did not come back after the restart).
 *
 * Runs where the mongo suites run (MONGODB_URI set, CI) and needs the FerretDB build of .ci/ferretdb.sh; without
 * them it is pending with the reason locally and a failure in CI.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection, type mongo } from 'mongoose';
import { migrate } from '../../../server/store/migrate.js';
import { createInternalSurface, type InternalSurface } from '../../../server/internal/internal-surface.js';
import { createMongoStore, type MongoStore } from '../../../server/store/mongo-store.js';
import { startService, type ServiceHarness } from '../../support/service-harness.js';
import { NO_RATE_LIMITS } from '../api/api-fixtures.js';
import { createFerretDb, ferretdbAvailable, FERRETDB_BIN, type FerretDb } from './ferretdb-process.js';
import { MONGODB_URI, uniqueDbName } from './mongo-test-db.js';
import { suiteNotRun } from '../../support/outside-npm.js';

const WORKERS = 6;
const CREATES_PER_WORKER = 20;
/** Longer than the driver's socketTimeoutMS (7 s): requests in flight fail with a network timeout, not just wait. */
const STALL_MS = 9_000;
const DOWN_MS = 1_500;
const LOAD_DEADLINE_MS = 90_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The test's own reads of the database after the faults: the driver may still hold connections to the killed
 * process (ECONNRESET on the first use), so a read is retried for up to 30 s, from the second half on through a
 * connection of its own — what is counted is the service, not the test's client. A read that still fails says
 * what FerretDB wrote and whether it is running.
 */
async function readBack<T>(
  store: MongoStore,
  db: FerretDb,
  read: (database: mongo.Db) => Promise<T>,
  trace: string[] = [],
): Promise<T> {
  const end = Date.now() + 30_000;
  let fresh: Connection | undefined;
  try {
    for (;;) {
      try {
        if (!fresh && Date.now() > end - 15_000)
          fresh = await mongoose
            .createConnection(db.uri, { serverSelectionTimeoutMS: 2_000, socketTimeoutMS: 5_000 })
            .asPromise();
        return await read((fresh ?? store.connection).db!);
      } catch (error) {
        if (Date.now() > end)
          throw new Error(
            `reading back failed for 30 s: ${String(error)}; ${db.diagnostics()}; the driver: ${trace.join(' | ')}`,
          );
        await sleep(250);
      }
    }
  } finally {
    await fresh?.close();
  }
}

const TITLE = 'the service under database stalls and crashes (fault suite)';

if (!MONGODB_URI)
  suiteNotRun(
    TITLE,
    'MONGODB_URI is unset (the fault suite runs with the mongo suites: CI, or source .ci/ferretdb.sh; ferretdb_start)',
  );
else if (!ferretdbAvailable())
  suiteNotRun(TITLE, `no FerretDB binary at ${FERRETDB_BIN} (run ferretdb_build of .ci/ferretdb.sh)`);
else {
  describe(TITLE, function () {
    this.timeout(180_000);
    let db: FerretDb;
    let store: MongoStore;
    let h: ServiceHarness;
    let internal: InternalSurface;
    const serverErrors: string[] = [];
    const driverTrace: string[] = [];
    let faultStartedAt: number | undefined;

    before(async () => {
      db = await createFerretDb(uniqueDbName());
      store = await createMongoStore(db.uri, { serverSelectionTimeoutMS: 500 });
      await migrate(store.connection);
      // What the service logged as an error, but for the 503s the faults are meant to cause: shown if a check fails.
      const logDestination = {
        write(line: string) {
          const entry = JSON.parse(line) as {
            msg?: string;
            res?: { statusCode?: number };
            err?: { type?: string; message?: string; code?: string };
          };
          if (entry.res?.statusCode === 503 || entry.err?.code === 'unavailable') return;
          serverErrors.push(`${entry.msg ?? ''}: ${entry.err?.type ?? ''} ${entry.err?.message ?? ''}`);
        },
      };
      // What the test's client (the service's) saw of the server, from the fault on: shown if the service did
      // not come back by itself.
      const client = store.connection.getClient();
      const note = (what: string) => {
        if (faultStartedAt === undefined) return;
        driverTrace.push(`${((Date.now() - faultStartedAt) / 1000).toFixed(1)} s ${what}`);
        if (process.env.FAULTS_TRACE) console.log(`      ${driverTrace.at(-1)}`);
        if (driverTrace.length > 60) driverTrace.splice(0, driverTrace.length - 60);
      };
      client.on('serverHeartbeatFailed', (e) => note(`heartbeat failed: ${e.failure.message}`));
      client.on('serverDescriptionChanged', (e) =>
        note(`server ${e.previousDescription.type} → ${e.newDescription.type}`),
      );
      client.on('connectionPoolCleared', () => note('pool cleared'));
      client.on('serverHeartbeatStarted', () => note('heartbeat started'));
      client.on('serverHeartbeatSucceeded', () => note('heartbeat succeeded'));
      client.on('connectionPoolReady', () => note('pool ready'));
      h = await startService({ store, env: { ...NO_RATE_LIMITS, LOG_LEVEL: 'error' }, logDestination });
      internal = createInternalSurface(h.deps);
    });
    after(async () => {
      try {
        db?.resume();
      } catch {
        // not running
      }
      await internal?.stop();
      await h?.close();
      await db?.dispose();
    });

    it('loses no acknowledged write, stores none twice, audits every one and answers only 503 while it fails', async () => {
      const org = await h.createOrganization('enterprise');
      const auth = `Bearer ${await h.token()}`;
      const url = `/api/v1/organizations/${org.id}/registrations`;
      const acknowledged = new Map<string, string>(); // Idempotency-Key → id
      const other5xx: string[] = [];
      const unexpected: string[] = [];
      const ackTimes: number[] = [];
      // What the service answered but for the 201s, by phase of the run: shown in the run's summary line.
      let phase = 'before the faults';
      const answers = new Map<string, number>();
      const live = (what: string) => {
        if (process.env.FAULTS_TRACE)
          console.log(`      ${((Date.now() - started) / 1000).toFixed(1)} s ${phase}: ${what}`);
      };
      const count = (answer: string) => {
        answers.set(`${phase}: ${answer}`, (answers.get(`${phase}: ${answer}`) ?? 0) + 1);
        live(answer);
      };
      const enter = (next: string) => {
        phase = next;
        live('phase');
      };
      let attempts = 0;
      let retries = 0;
      const started = Date.now();

      async function createOnce(key: string): Promise<void> {
        const body = { name: `fault ${key}`, templateId: 'tpl_web' };
        for (let attempt = 0; Date.now() - started < LOAD_DEADLINE_MS; attempt += 1) {
          attempts += 1;
          if (attempt > 0) retries += 1;
          let res;
          try {
            res = await h.request
              .post(url)
              .set('Authorization', auth)
              .set('Idempotency-Key', key)
              .send(body)
              .timeout(20_000);
          } catch (err) {
            // A lost connection: the outcome is unknown, so the client retries with the same key.
            const status = (err as { status?: number }).status;
            if (status === undefined) {
              count('no answer');
              await sleep(200);
              continue;
            }
            res = (err as { response: { status: number; body: { error?: { code?: string } } } }).response;
          }
          if (res.status === 201) {
            if (acknowledged.has(key) && acknowledged.get(key) !== res.body.id)
              unexpected.push(`${key}: a retry answered another id`);
            acknowledged.set(key, res.body.id);
            ackTimes.push(Date.now());
            live(`201 ${key}`);
            return;
          }
          count(`${res.status} ${res.body?.error?.code ?? ''}`.trim());
          if (res.status >= 500 && res.status !== 503) other5xx.push(`${res.status} ${JSON.stringify(res.body)}`);
          else if (res.status !== 503 && !(res.status === 409 && res.body.error?.code === 'conflict')) {
            unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
            return;
          }
          await sleep(100 + Math.random() * 300);
        }
        unexpected.push(`${key}: not acknowledged before the deadline`);
      }

      async function worker(w: number): Promise<void> {
        for (let i = 0; i < CREATES_PER_WORKER; i += 1)
          await createOnce(`fault-${w}-${i}-${randomBytes(4).toString('hex')}`);
      }

      async function untilAcks(n: number, limitMs: number): Promise<void> {
        const end = Date.now() + limitMs;
        while (ackTimes.length < n && Date.now() < end) await sleep(50);
      }
      const firstAckAfter = (t: number) => ackTimes.find((a) => a >= t);

      const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      const total = WORKERS * CREATES_PER_WORKER;
      await untilAcks(Math.floor(total / 5), 30_000);
      enter('stalled');
      faultStartedAt = Date.now();
      db.pause();
      await sleep(STALL_MS);
      db.resume();
      enter('after the stall');
      const resumedAt = Date.now();
      await untilAcks(Math.floor((total * 2) / 5), 30_000);
      enter('down');
      await db.kill();
      await sleep(DOWN_MS);
      await db.start();
      const restartedAt = Date.now();
      enter('after the restart');
      await load;

      // Counted from the database: every stored registration of this organization.
      const stored = await readBack(
        store,
        db,
        (database) =>
          database.collection('registrations').find({ organizationId: org.id }).project({ _id: 1, name: 1 }).toArray(),
        driverTrace,
      );
      const storedIds = new Set(stored.map((r) => String(r._id)));
      const byName = new Map<string, number>();
      for (const r of stored) byName.set(String(r.name), (byName.get(String(r.name)) ?? 0) + 1);
      const lost = [...acknowledged.values()].filter((id) => !storedIds.has(id));
      const duplicates = [...byName.values()].reduce((sum, n) => sum + n - 1, 0);
      // An audit entry may be written after its record: inline right after the write or, when a fault broke that,
      // by the drain (every 5 s, taking outboxes older than 5 s): give it that long twice over.
      let gaps: string[] = [];
      for (let i = 0; i < 100; i += 1) {
        const audited = new Set(
          (
            await readBack(store, db, (database) =>
              database
                .collection('audit_log')
                .find({ organizationId: org.id, action: 'create' })
                .project({ targetId: 1 })
                .toArray(),
            )
          ).map((e) => String(e.targetId)),
        );
        gaps = [...storedIds].filter((id) => !audited.has(id));
        if (gaps.length === 0) break;
        await sleep(200);
      }
      const afterStall = (firstAckAfter(resumedAt) ?? NaN) - resumedAt;
      const afterCrash = (firstAckAfter(restartedAt) ?? NaN) - restartedAt;
      console.log(
        `      faults: ${acknowledged.size}/${total} acknowledged in ${attempts} attempts (${retries} retries); lost ${lost.length}, ` +
          `duplicates ${duplicates}, audit gaps ${gaps.length}, other 5xx ${other5xx.length}; ` +
          `first ack ${afterStall} ms after the stall ended, ${afterCrash} ms after the restart; ` +
          `other answers: ${[...answers].map(([answer, n]) => `${answer} ×${n}`).join(', ')}`,
      );

      if (!Number.isFinite(afterCrash))
        console.log(`      the driver, from the stall on:\n        ${driverTrace.join('\n        ')}`);
      expect(unexpected, 'answers other than 201, 503 and 409 in flight').to.deep.equal([]);
      expect(acknowledged.size).to.equal(total);
      expect(lost, 'acknowledged creates missing from the database').to.deep.equal([]);
      expect(duplicates, 'creates stored more than once').to.equal(0);
      expect(gaps, 'stored registrations without their audit entry').to.deep.equal([]);
      expect(other5xx, `5xx answers other than 503; the service logged: ${serverErrors.join(' | ')}`).to.deep.equal([]);
      expect(
        Number.isFinite(afterStall) && Number.isFinite(afterCrash),
        'the service recovered from both faults by itself',
      ).to.equal(true);
    });
  });
}
