/**
 * The scanner against a target that attacks it (docs/architecture.md §2.10): a 2 GiB streamed body, a gzip bomb, a
 * redirect loop, a header flood. The built scanner runs in a child process so its own peak memory is measured
 * (`process.resourceUsage().maxRSS`), and every case ends with a truncation note or one readable error.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { fromRoot } from '../../lib/project-root.js';
import type { Report } from '../../scanner/report/report-types.js';

const bin = fromRoot('dist', 'scanner', 'bin.js');
const peakRss = fileURLToPath(new URL('./support/peak-rss.mjs', import.meta.url));
const probeChecks = fileURLToPath(new URL('../fixtures/custom-checks/valid/', import.meta.url));
const MIB = 1024 * 1024;
const PEAK_LIMIT_MIB = 300;

/** Writes `total` bytes of `chunk` with backpressure, stopping when the client goes away. */
function stream(res: http.ServerResponse, chunk: Buffer, total: number): void {
  let sent = 0;
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

function hostile(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.url === '/huge') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    return stream(res, Buffer.alloc(64 * 1024, 97), 2048 * MIB);
  }
  if (req.url === '/gzip-bomb') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    const gzip = createGzip();
    gzip.pipe(res);
    const zeros = Buffer.alloc(MIB);
    let sent = 0;
    const pump = (): void => {
      while (sent < 2048 && !res.destroyed) {
        sent += 1;
        if (!gzip.write(zeros)) return void gzip.once('drain', pump);
      }
      gzip.end();
    };
    res.once('close', () => gzip.destroy());
    return pump();
  }
  if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
  if (req.url === '/header-flood') {
    const headers: Record<string, string> = {};
    for (let i = 0; i < 2000; i += 1) headers[`x-flood-${i}`] = 'v'.repeat(100);
    return void res.writeHead(200, headers).end('ok');
  }
  res.writeHead(404).end();
}

interface Run {
  code: number | null;
  report: Report;
  stderr: string;
  peakMib: number;
}

function scan(url: string, ...flags: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--import',
        peakRss,
        bin,
        'scan',
        'curl',
        url,
        '--checks-dir',
        probeChecks,
        '--scans',
        'custom.probe',
        '--report-format',
        'json',
        '--no-progress',
        ...flags,
      ],
      { cwd: fromRoot(), maxBuffer: 64 * MIB, timeout: 120_000 },
      (error, stdout, stderr) => {
        const peak = /peak-rss-mib: (\d+)/.exec(stderr);
        if (!peak || !stdout) return reject(new Error(`no report (${error?.message ?? 'no error'}): ${stderr}`));
        resolve({
          code: error ? ((error as { code?: number }).code ?? null) : 0,
          report: JSON.parse(stdout) as Report,
          stderr,
          peakMib: Number(peak[1]),
        });
      },
    );
  });
}

const attemptOf = (run: Run) => run.report.reports.find((r) => r.id === 'custom.probe')!.scans[0];

describe('the scanner against a hostile target (built bin, peak memory measured in its own process)', function () {
  this.timeout(180_000);
  let server: http.Server;
  let base: string;
  before(async () => {
    server = http.createServer(hostile);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it(`reads 5 MiB of a 2 GiB streamed body, says it was cut, and stays under ${PEAK_LIMIT_MIB} MB`, async () => {
    const run = await scan(`${base}/huge`);
    expect(run.code, run.stderr).to.equal(0);
    expect(attemptOf(run).response?.truncated).to.equal('body cut at 5 MiB (--max-body); the rest was not read');
    expect(run.peakMib).to.be.below(PEAK_LIMIT_MIB);
  });

  it('cuts where --max-body says', async () => {
    const run = await scan(`${base}/huge`, '--max-body', '64KiB');
    expect(attemptOf(run).response?.truncated).to.equal('body cut at 64 KiB (--max-body); the rest was not read');
  });

  it(`stops a gzip bomb once it decompresses past 200 times what arrived, under ${PEAK_LIMIT_MIB} MB`, async () => {
    const run = await scan(`${base}/gzip-bomb`);
    expect(run.code, run.stderr).to.equal(0);
    expect(attemptOf(run).response?.truncated).to.match(
      /^body cut at [\d.]+ MiB: it decompressed to more than 200 times the [\d.]+ KiB received \(a compression bomb\); the rest was not read$/,
    );
    expect(run.peakMib).to.be.below(PEAK_LIMIT_MIB);
  });

  it('ends a redirect loop with one readable error (with -L)', async () => {
    const run = await scan(`${base}/loop`, '-L');
    expect(attemptOf(run).error?.message).to.match(
      /^GET http:\/\/127\.0\.0\.1:\d+\/loop: Redirected 30 times\. Aborting\. \(a redirect loop or a chain longer than --max-redirs\)$/,
    );
    expect(run.peakMib).to.be.below(PEAK_LIMIT_MIB);
  });

  it('ends a header flood with one readable error', async () => {
    const run = await scan(`${base}/header-flood`);
    expect(attemptOf(run).error?.message).to.match(
      /^GET http:\/\/127\.0\.0\.1:\d+\/header-flood: response headers larger than 64 KiB; not read$/,
    );
    expect(run.peakMib).to.be.below(PEAK_LIMIT_MIB);
  });
});
