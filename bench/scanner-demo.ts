/**
 * The demo part of bench/scanner.ts: `scanner scan openapi` of the vulnerable demo API at defaults (50/s per host,
 * concurrency 8, alice with bob as --as-other): wall time, requests, and the requests each check sent per operation —
 * the checks of OWASP classes beyond authentication on their own line, their mean per operation beside
 * the budget (≤ 15 on average; passive checks none). A passive check's cited evidence is counted for the check that
 * sent it (the first report item holding that attempt id), never twice.
 */
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createDemoApi } from '../demo/vulnerable-api/app.js';
import { tokenOf } from '../demo/vulnerable-api/store.js';
import { run } from '../scanner/cli.js';
import type { Report } from '../scanner/report/report-types.js';

/** Checks of OWASP classes beyond authentication (injection, BOPLA, SSRF, ...), held to a request budget. */
const CLASSES =
  /^(injection\.|bopla\.|misconfiguration\.verbose_errors$|authentication\.user_enumeration$|resource\.redos$|ssrf\.)/;

export async function benchDemo(dir: string): Promise<void> {
  const demo = createDemoApi();
  const server = demo.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = join(dir, 'demo.json');
  const sink = { write: () => true };
  try {
    const started = performance.now();
    const code = await run(
      [
        'scan',
        'openapi',
        `${origin}/openapi.json`,
        '--security-schemes',
        `bearer=${tokenOf(demo.store, 'alice')}`,
        '--as-other',
        `Authorization: Bearer ${tokenOf(demo.store, 'bob')}`,
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
    const seen = new Set<string>();
    const sent = new Map<string, Map<string, number>>();
    for (const item of report.reports) {
      const fresh = item.scans.filter((scan) => !seen.has(scan.id));
      for (const scan of fresh) seen.add(scan.id);
      const byOperation = sent.get(item.id) ?? new Map<string, number>();
      byOperation.set(
        item.operation?.id ?? '(scan)',
        (byOperation.get(item.operation?.id ?? '(scan)') ?? 0) + fresh.length,
      );
      sent.set(item.id, byOperation);
    }
    const operations = new Set(
      report.reports.map((item) => item.operation?.id).filter((id): id is string => id !== undefined),
    ).size;
    console.log(
      `scan openapi of the vulnerable demo API at defaults: ${operations} operations, ${report.options.requestsSent as number} requests, ${ms.toFixed(0)} ms`,
    );
    let classesTotal = 0;
    for (const [check, byOperation] of [...sent].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const total = [...byOperation.values()].reduce((a, b) => a + b, 0);
      if (CLASSES.test(check)) classesTotal += total;
      const detail = [...byOperation]
        .filter(([, n]) => n > 0)
        .map(([op, n]) => `${op}=${n}`)
        .join(', ');
      console.log(`  ${CLASSES.test(check) ? '*' : ' '} ${check.padEnd(40)} ${String(total).padStart(4)}  ${detail}`);
    }
    console.log(
      `  * the checks beyond authentication: ${(classesTotal / operations).toFixed(1)} requests per operation on average (budget 15)`,
    );
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
