/**
 * .ci/ferretdb.sh as the bench and a developer use it: `ferretdb_start` leaves MONGODB_URI and FERRETDB_PID in the
 * environment of the commands run after it (bench/service-scale.ts reads the database's CPU through FERRETDB_PID);
 * `ferretdb_start postgresql` runs FerretDB on a PostgreSQL cluster of its own, which `ferretdb_stop` stops.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { notRunHere, suiteNotRun } from '../support/outside-npm.js';
import { FERRETDB_BIN, ferretdbAvailable } from '../server/mongo/ferretdb-process.js';

const run = promisify(execFile);

/** Runs `script` after sourcing .ci/ferretdb.sh, with neither variable inherited (an exported one would make the
 * script's plain assignment look exported); what the script's last line printed, parsed as JSON. */
async function afterSourcing<T>(script: string): Promise<T> {
  const { MONGODB_URI: _uri, FERRETDB_PID: _pid, FERRETDB_POSTGRES_PID: _pg, ...env } = process.env;
  const { stdout } = await run('bash', ['-c', `source .ci/ferretdb.sh && ${script}`], { cwd: fromRoot(), env });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as T;
}

/** Stores one document through FerretDB and prints how many the collection holds. */
const STORE_ONE_AND_COUNT = `
  import { MongoClient } from "mongodb";
  const client = await new MongoClient(process.env.MONGODB_URI).connect();
  const collection = client.db().collection("probe");
  await collection.insertOne({ stored: true });
  console.log(await collection.countDocuments());
  await client.close();`;

/**
 * Prints what was stored and whether the postmaster (argv[1]) still runs, as JSON: a process that ended but that no
 * one reaped (a container's first process may not) is a zombie, state Z, and no longer runs.
 */
const REPORT_POSTMASTER = `
  let alive = false;
  try { alive = require("fs").readFileSync("/proc/" + process.argv[1] + "/stat", "utf8").split(") ")[1][0] !== "Z"; } catch {}
  console.log(JSON.stringify({ stored: Number(process.argv[2]), postgres: process.argv[1], alive }));`;

/** PostgreSQL's server binaries, as ferretdb_postgresql_start finds them. */
function postgresqlInstalled(): boolean {
  const found = spawnSync('bash', ['-c', 'command -v initdb || ls /usr/lib/postgresql/*/bin/initdb'], {
    stdio: 'ignore',
  });
  return found.status === 0;
}

if (!ferretdbAvailable())
  suiteNotRun('.ci/ferretdb.sh', `no FerretDB build at ${FERRETDB_BIN} (source .ci/ferretdb.sh; ferretdb_build)`);
else
  describe('.ci/ferretdb.sh', () => {
    it('exports the database address and its process id to the commands that follow ferretdb_start', async () => {
      const seen = await afterSourcing<{ uri?: string; pid?: string }>(
        'ferretdb_start >/dev/null && ' +
          `node -e 'console.log(JSON.stringify({ uri: process.env.MONGODB_URI, pid: process.env.FERRETDB_PID }))'; ` +
          'ferretdb_stop',
      );
      expect(seen.uri).to.match(/^mongodb:\/\/127\.0\.0\.1:\d+\/gatehouse_ci$/);
      expect(seen.pid).to.match(/^\d+$/);
    });

    describe('on PostgreSQL', () => {
      if (!postgresqlInstalled()) {
        notRunHere(
          "PostgreSQL's server binaries are not installed (Debian: apt-get install postgresql; CI installs them)",
        );
        return;
      }
      it('runs FerretDB on a cluster of its own with ferretdb_start postgresql, and ferretdb_stop stops both', async function () {
        this.timeout(60_000);
        const seen = await afterSourcing<{ stored: number; postgres: string; alive: boolean }>(
          'ferretdb_start postgresql >/dev/null && ' +
            `stored=$(node --input-type=module -e '${STORE_ONE_AND_COUNT}') && pg=$FERRETDB_POSTGRES_PID && ferretdb_stop && ` +
            `node -e '${REPORT_POSTMASTER}' "$pg" "$stored"`,
        );
        expect(seen.stored).to.equal(1);
        expect(seen.postgres).to.match(/^\d+$/);
        expect(seen.alive, 'the postmaster is gone after ferretdb_stop').to.equal(false);
      });
    });
  });
