/**
 * The inputs part of bench/scanner.ts: what the injection family costs per injectable input. `scanner scan openapi`
 * at defaults, only the family's checks (injection.*, misconfiguration.open_redirect), of the demo API's secure twin
 * (every input clean: the full cost of trying it) and of the vulnerable demo (stopping at the first confirmed
 * finding): the requests that reached the target (counted there, the description's fetch aside) over the inputs the
 * family aims at (checks/support/injection-targets.ts, on operations whose inputs may carry payloads) — against the
 * budget of 12 requests per injectable input on average — and each check's share from the report (a read
 * operation's baseline answer is shared by the checks, so their sum is above what was sent).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createDemoApi } from '../demo/vulnerable-api/app.js';
import { tokenOf } from '../demo/vulnerable-api/store.js';
import { payloadRefusal } from '../scanner/api.js';
import { run } from '../scanner/cli.js';
import { loadOpenApiDocument } from '../scanner/openapi/load-document.js';
import { operationsFromDocument } from '../scanner/openapi/operations.js';
import type { Report } from '../scanner/report/report-types.js';
import { injectionTargets } from '../checks/support/injection-targets.js';

const FAMILY = /^(injection\.|misconfiguration\.open_redirect$)/;
const BUDGET = 12;

async function scanDemo(dir: string, secure: boolean): Promise<void> {
  const demo = createDemoApi({ secure });
  let received = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/openapi.json') received += 1;
    void demo.app(req, res);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = join(dir, `inputs-${secure ? 'secure' : 'vulnerable'}.json`);
  const sink = { write: () => true };
  try {
    const token = tokenOf(demo.store, 'alice');
    const started = performance.now();
    const code = await run(
      [
        'scan',
        'openapi',
        `${origin}/openapi.json`,
        '--security-schemes',
        `bearer=${token}`,
        '--scans',
        'injection.*',
        '--scans',
        'misconfiguration.open_redirect',
        '--no-progress',
        '--report-format',
        'json',
        '--report-file',
        file,
      ],
      { stdout: sink, stderr: sink, env: {} },
    );
    const ms = performance.now() - started;
    if (code !== 0) throw new Error(`scan exited ${code}`);
    const report = JSON.parse(await readFile(file, 'utf8')) as Report;
    const loaded = await loadOpenApiDocument(`${origin}/openapi.json`, process.cwd());
    const operations = operationsFromDocument(loaded, { credentials: { byScheme: { bearer: token } } });
    const inputs = operations
      .filter((op) => payloadRefusal(op) === undefined)
      .reduce((sum, op) => sum + injectionTargets(op).length, 0);
    const byCheck = new Map<string, number>();
    for (const item of report.reports)
      if (FAMILY.test(item.id)) byCheck.set(item.id, (byCheck.get(item.id) ?? 0) + item.scans.length);
    const total = received;
    const found = report.reports.filter((r) => FAMILY.test(r.id) && r.issues.some((i) => i.status === 'failed'));
    console.log(
      `injection family on the demo API's ${secure ? 'secure twin' : 'vulnerable twin'} at defaults: ${inputs} injectable inputs, ${total} requests, ${(total / inputs).toFixed(1)} per input (budget ${BUDGET}), ${found.length} findings, scan ${ms.toFixed(0)} ms`,
    );
    for (const [check, sent] of [...byCheck].sort(([a], [b]) => (a < b ? -1 : 1)))
      console.log(
        `    ${check.padEnd(34)} ${String(sent).padStart(4)} in its report  ${(sent / inputs).toFixed(1)} per input`,
      );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export async function benchInputs(dir: string): Promise<void> {
  await scanDemo(dir, true);
  await scanDemo(dir, false);
}
