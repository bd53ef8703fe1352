import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUsersBooksTarget, type UsersBooksTarget } from '../../fixtures/targets/users-books-target.js';
import { scanToReport } from '../support/run-cli.js';
import { usersAndBooks } from './fixtures/descriptions.js';

describe('scan openapi at defaults of an API whose examples name a real account', function () {
  this.timeout(60_000);
  let target: UsersBooksTarget | undefined;
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'no-harm-'))));
  afterEach(async () => {
    await target?.close();
    target = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  async function scan(): Promise<Awaited<ReturnType<typeof scanToReport>>> {
    const spec = join(dir, 'users.json');
    await writeFile(spec, JSON.stringify(usersAndBooks()));
    return scanToReport([
      'scan',
      'openapi',
      spec,
      '--base-url',
      target!.origin,
      '--security-schemes',
      `bearerAuth=${target!.tokenOf('alice')}`,
      '--as-other',
      `Authorization: Bearer ${target!.tokenOf('bob')}`,
      '--rate',
      '2000/s',
    ]);
  }

  it("changes neither the password nor the e-mail of name1, whom the description's examples name, where anyone may change anyone's", async () => {
    target = await startUsersBooksTarget({ vulnerable: true });
    const before = target.accounts();
    const { report, ...run } = await scan();
    expect(run.code, run.stderr).to.equal(0);
    expect(target.accounts().name1).to.deep.equal(before.name1);
    expect(target.calls().filter((call) => call.startsWith('PUT /users/v1/name1'))).to.deep.equal([]);
    // The scan identities' own passwords stay too: the scan knows neither, so it changes neither.
    expect(target.accounts().alice.password).to.equal(before.alice.password);
    expect(target.accounts().bob.password).to.equal(before.bob.password);
    // The operation as given is alice's own, without the password the description's example would have set.
    const baseline = report.reports.find(
      (r) => r.operation?.id === 'PUT /users/v1/{username}/password' && r.id === 'auth.baseline',
    )!;
    expect(baseline.scans[0].request).to.include({ url: target.url('/users/v1/alice/password'), body: '{}' });
  });
});
