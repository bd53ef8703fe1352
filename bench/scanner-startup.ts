/**
 * The start-up part of bench/scanner.ts (issue #28): spawned `scanner --version`, `scanner --help` and the time from
 * spawning `scanner scan curl` to the first HTTP request its target receives, each beside `node -e 0` measured in the
 * same rounds; then 24 single-endpoint targets (bench/single-endpoint-targets.ts) scanned one after another at
 * defaults (50 requests/s per host) — total wall time and findings — by this build and by a previous build of the
 * repository measured in the same run (VulnAPI, the tool the issue compared with, cannot be installed here).
 * The previous build is `git archive <ref>` built in a temp dir (kept between runs), with this checkout's node_modules.
 * Usage (through bench/scanner.ts): npm run bench:scanner -- --only startup [--rounds 7] [--previous <git ref>];
 * `--previous ''` measures this build alone (a shallow clone has no earlier commit to build).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromRoot } from '../lib/project-root.js';
import type { Report } from '../scanner/report/report-types.js';
import { busyTicks, procStat } from './proc-stat.js';
import { startSingleEndpointTargets } from './single-endpoint-targets.js';

/** main when the start-up work began (bundle, lazy commands, precompiled validators): the build compared against. */
export const PREVIOUS_REF = 'dd2e649';

interface Build {
  label: string;
  bin: string;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function spawned(args: string[]): Promise<{ ms: number; code: number | null; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, stderr })),
  );
}

/** The previous build: `git archive` of `ref` into a temp dir, built there once with this checkout's node_modules. */
function previousBuild(ref: string): Build {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: fromRoot(), encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `gatehouse-bench-build-${commit}`);
  const bin = join(dir, 'dist', 'scanner', 'bin.js');
  if (!existsSync(bin)) {
    process.stdout.write(`building ${ref} (${commit}) in ${dir} for the comparison (once)…\n`);
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C ${JSON.stringify(dir)}`], { cwd: fromRoot() });
    if (!existsSync(join(dir, 'node_modules'))) symlinkSync(fromRoot('node_modules'), join(dir, 'node_modules'));
    execFileSync('npm', ['run', '-s', 'build'], { cwd: dir, stdio: 'inherit' });
  }
  return { label: `previous build (${commit})`, bin };
}

/** CPU time (user + system) a running process has used so far, from /proc (Linux), or undefined elsewhere. */
function cpuMsOf(pid: number): number | undefined {
  const fields = procStat(pid);
  return fields && busyTicks(fields) * 10;
}

/** The CPU time a bare Node uses to start, as it reports it itself (process.cpuUsage). */
async function nodeCpuMs(): Promise<number> {
  const child = spawn(
    process.execPath,
    ['-e', 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000))'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return Number(out);
}

/**
 * From spawning a default `scan curl` to the first request its target receives: the wall time, and the CPU time the
 * scanner used until then (what the wall time would be on an idle machine, less the waits), then the scan is stopped.
 */
async function firstRequest(build: Build): Promise<{ ms: number; cpuMs?: number }> {
  let started = 0;
  let child: ReturnType<typeof spawn> | undefined;
  const first = new Promise<{ ms: number; cpuMs?: number }>((resolve) => {
    const server = createServer((_req, res) => {
      resolve({ ms: performance.now() - started, cpuMs: child?.pid ? cpuMsOf(child.pid) : undefined });
      child?.kill();
      res.end();
      server.close();
      server.closeAllConnections();
    });
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/items`;
      started = performance.now();
      child = spawn(process.execPath, [build.bin, 'scan', 'curl', url, '--no-progress'], { stdio: 'ignore' });
    });
  });
  const result = await first;
  if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve));
  return result;
}

async function startUp(builds: Build[], rounds: number): Promise<void> {
  const rows = new Map<string, number[]>();
  const add = (label: string, ms: number) => rows.set(label, [...(rows.get(label) ?? []), ms]);
  for (let i = 0; i < rounds; i += 1) {
    // Round-robin, so load from other processes falls on every row alike.
    add('node -e 0', (await spawned(['-e', '0'])).ms);
    add('  CPU time of node -e 0', await nodeCpuMs());
    for (const build of builds) {
      add(`scanner --version, ${build.label}`, (await spawned([build.bin, '--version'])).ms);
      add(`scanner --help, ${build.label}`, (await spawned([build.bin, '--help'])).ms);
      const first = await firstRequest(build);
      add(`first request of scan curl, ${build.label}`, first.ms);
      if (first.cpuMs !== undefined) add(`  CPU time until then, ${build.label}`, first.cpuMs);
    }
  }
  const base = median(rows.get('node -e 0')!);
  const cpuBase = median(rows.get('  CPU time of node -e 0') ?? [NaN]);
  console.log(`scanner start-up, spawned processes, median of ${rounds} (load average ${loadavg()[0].toFixed(1)}):`);
  for (const [label, times] of rows) {
    const ms = median(times);
    // Wall times compare with node -e 0's wall time, CPU times with its CPU time.
    const [reference, name] = label.includes('CPU') ? [cpuBase, 'its CPU time'] : [base, 'node -e 0'];
    const extra = label.trim().endsWith('node -e 0')
      ? ''
      : `  ${(ms / reference).toFixed(2)}× ${name}, + ${(ms - reference).toFixed(0)} ms`;
    console.log(`  ${label.padEnd(58)} ${ms.toFixed(0).padStart(6)} ms${extra}`);
  }
}

async function sideBySide(builds: Build[], dir: string): Promise<void> {
  const { targets, close } = await startSingleEndpointTargets();
  const totals = builds.map(() => ({ ms: 0, findings: 0, requests: 0 }));
  try {
    for (const [t, target] of targets.entries()) {
      // Alternate which build goes first, so neither always scans a warmer machine.
      const order = t % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
      for (const i of order) {
        const file = join(dir, `report-${i}.json`);
        const run = await spawned([
          builds[i].bin,
          'scan',
          'curl',
          target.url,
          ...target.flags,
          '--no-progress',
          '--report-format',
          'json',
          '--report-file',
          file,
        ]);
        if (run.code !== 0)
          throw new Error(`${builds[i].label}: scan of ${target.name} exited ${run.code}: ${run.stderr.trim()}`);
        const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
        totals[i].ms += run.ms;
        totals[i].requests += Number(report.options.requestsSent);
        totals[i].findings += report.reports.flatMap((r) => r.issues).filter((x) => x.status === 'failed').length;
      }
    }
  } finally {
    close();
  }
  console.log(`${targets.length} single-endpoint targets, one scan curl each at defaults (50 requests/s per host):`);
  for (const [i, build] of builds.entries()) {
    const { ms, findings, requests } = totals[i];
    console.log(
      `  ${build.label.padEnd(30)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${requests} requests  ${findings} failed issues`,
    );
  }
  if (builds.length === 2)
    console.log(`  wall time, this build / previous build: ${(totals[0].ms / totals[1].ms).toFixed(2)}×`);
}

export async function benchStartup(options: { rounds: number; previous?: string }): Promise<void> {
  const current: Build = { label: 'this build', bin: fromRoot('dist', 'scanner', 'bin.js') };
  const builds = [current, ...(options.previous ? [previousBuild(options.previous)] : [])];
  await startUp(builds, options.rounds);
  const dir = await mkdtemp(join(tmpdir(), 'scanner-startup-'));
  try {
    await sideBySide(builds, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
