/**
 * .ci/ferretdb.sh as the bench and a developer use it: `ferretdb_start` leaves MONGODB_URI and FERRETDB_PID in the
 * environment of the commands run after it (bench/service-scale.ts reads the database's CPU through FERRETDB_PID).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import { describeNotRun } from '../server/mongo/mongo-test-db.js';
import { FERRETDB_BIN, ferretdbAvailable } from '../server/mongo/ferretdb-process.js';

const run = promisify(execFile);

if (!ferretdbAvailable())
  describeNotRun('.ci/ferretdb.sh', `no FerretDB build at ${FERRETDB_BIN} (source .ci/ferretdb.sh; ferretdb_build)`);
else
  describe('.ci/ferretdb.sh', () => {
    it('exports the database address and its process id to the commands that follow ferretdb_start', async () => {
      // Neither variable inherited: an exported one would make the script's plain assignment look exported.
      const { MONGODB_URI: _uri, FERRETDB_PID: _pid, ...env } = process.env;
      const { stdout } = await run(
        'bash',
        [
          '-c',
          'source .ci/ferretdb.sh && ferretdb_start >/dev/null && ' +
            `node -e 'console.log(JSON.stringify({ uri: process.env.MONGODB_URI, pid: process.env.FERRETDB_PID }))'; ` +
            'ferretdb_stop',
        ],
        { cwd: fromRoot(), env },
      );
      const seen = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { uri?: string; pid?: string };
      expect(seen.uri).to.match(/^mongodb:\/\/127\.0\.0\.1:\d+\/gatehouse_ci$/);
      expect(seen.pid).to.match(/^\d+$/);
    });
  });
