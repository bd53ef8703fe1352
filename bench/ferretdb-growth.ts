/**
 * What an organization's reads cost on the MongoDB wire as the registrations collection grows (docs/operations.md
 * §7.3): store-level (the repositories, no HTTP), one client, medians of 5 sequential reads, at each size of --sizes.
 * At each size two organizations join — 3 registrations (listed record by record by `{ _id }`) and 20 (listed through
 * the compound index) — so their records are stored after the bulk, where a server that scans in insertion order
 * (FerretDB 1.24 on SQLite) meets them last; the oldest registration's read by id is the same read met first.
 * Each line is read against the first size's: the growth, not the absolute figure, is the result.
 * Usage: MONGODB_URI=… npx tsx bench/ferretdb-growth.ts [--sizes 100,2000,5000,20000]
 */
import { parseArgs } from 'node:util';
import { asDocument, bulkRegistration } from './bulk-registration.js';
import { migrate } from '../server/store/migrate.js';
import { createMongoStore } from '../server/store/mongo-store.js';
import { upgradeDirectories } from '../server/store/upgrade-directories.js';

const READS = 5;

/** The median time of READS sequential calls, in ms. */
async function median(read: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < READS; i += 1) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(READS / 2)];
}

async function run(): Promise<number> {
  const { values } = parseArgs({ options: { sizes: { type: 'string', default: '100,2000,5000,20000' } } });
  const uri = process.env.MONGODB_URI;
  if (!uri) {
    process.stderr.write('ferretdb-growth: set MONGODB_URI (source .ci/ferretdb.sh && ferretdb_start)\n');
    return 2;
  }
  const sizes = values.sizes
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => a - b);
  // A query limit no read here reaches: the figure is the read's cost, not a 503.
  const store = await createMongoStore(uri, { dbName: `gatehouse_growth_${process.pid}`, queryTimeoutMs: 120_000 });
  try {
    await store.reset();
    await migrate(store.connection);
    const bulk = store.connection.db!.collection('registrations');
    const large = (await store.organizations.create({ name: 'Large', plan: 'enterprise' })).id;
    let stored = 0;
    let oldest: string | undefined;
    const columns = ['3-registration list', '20-registration list', 'count', 'by id, newest', 'by id, oldest'];
    let first: number[] | undefined;
    process.stdout.write(`store-level, one client, median of ${READS} reads, ms (× the first size's)\n`);
    for (const size of sizes) {
      for (; stored < size;) {
        const docs = Array.from({ length: Math.min(1000, size - stored) }, (_, j) => {
          return asDocument(bulkRegistration(large, stored + j));
        });
        oldest ??= docs[0]._id;
        await bulk.insertMany(docs as never[]);
        stored += docs.length;
      }
      // What the migration writes for data it finds: the large organization's directory (overflowed past 1000).
      await upgradeDirectories(store.connection);
      const small = (await store.organizations.create({ name: 'Small', plan: 'pro' })).id;
      const medium = (await store.organizations.create({ name: 'Medium', plan: 'pro' })).id;
      for (const [organizationId, count] of [
        [small, 3],
        [medium, 20],
      ] as const)
        for (let i = 0; i < count; i += 1) await store.registrations.create(bulkRegistration(organizationId, i));
      const [newest] = await store.registrations.list({ organizationId: small, limit: 1 });
      const figures = [
        await median(() => store.registrations.list({ organizationId: small, limit: 20 })),
        await median(() => store.registrations.list({ organizationId: medium, limit: 20 })),
        await median(() => store.registrations.count(medium)),
        await median(() => store.registrations.get(small, newest.id)),
        await median(() => store.registrations.get(large, oldest as string)),
      ];
      first ??= figures;
      process.stdout.write(
        `${String(size).padStart(7)} registrations: ${figures
          .map((ms, i) => `${columns[i]} ${ms.toFixed(1)} (× ${(ms / Math.max(first![i], 0.1)).toFixed(1)})`)
          .join('  ')}\n`,
      );
    }
    return 0;
  } finally {
    await store.connection.dropDatabase();
    await store.close();
  }
}

process.exitCode = await run();
