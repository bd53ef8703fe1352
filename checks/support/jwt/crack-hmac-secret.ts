/**
 * Runs the weak-secret search in a worker thread (`weak-secret-worker`) and resolves with its outcome. Works from
 * source (tsx) and from dist. One search per token and dictionary: an OpenAPI scan asks about the same token on every
 * operation, so concurrent callers share one worker and later ones get the finished outcome (dictionary files are
 * keyed by path, size and mtime). A caller's abort rejects its own wait; the worker is terminated when every caller
 * waiting on it has aborted.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { HmacAlg } from './algorithms.js';
import type { UnverifiedJwt } from '../../../scanner/api.js';
import type { CrackJob, CrackOutcome } from './weak-secret-worker.js';

const fromSource = fileURLToPath(import.meta.url).endsWith('.ts');
const workerUrl = new URL(`./weak-secret-worker.${fromSource ? 'ts' : 'js'}`, import.meta.url);

function startWorker(job: CrackJob): Worker {
  if (!fromSource) return new Worker(workerUrl, { workerData: job });
  // Under tsx on Node 20 a worker does not inherit the TypeScript loader: register it, then import the worker.
  const bootstrap = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(workerUrl.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: job });
}

export interface CrackOptions {
  candidates: string[];
  files?: string[];
  signal?: AbortSignal;
}

const HASH: Record<HmacAlg, CrackJob['hash']> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

interface SharedSearch {
  promise: Promise<CrackOutcome>;
  waiting: number;
  terminate(): void;
}

const FINISHED_LIMIT = 64;
const running = new Map<string, SharedSearch>();
const finished = new Map<string, CrackOutcome>();

/** The cache key of a job, or undefined when a dictionary file cannot be stat'ed (the worker then reports it). */
function keyOf(job: CrackJob): string | undefined {
  const files: string[] = [];
  for (const file of job.files) {
    try {
      const stat = statSync(file);
      files.push(`${file}\u0000${stat.size}\u0000${stat.mtimeMs}`);
    } catch {
      return undefined;
    }
  }
  const candidates = createHash('sha256').update(job.candidates.join('\n')).digest('hex');
  return JSON.stringify([job.hash, job.signingInput, job.signature, candidates, files]);
}

function runWorker(job: CrackJob): SharedSearch {
  let worker: Worker | undefined;
  const promise = new Promise<CrackOutcome>((resolve, reject) => {
    worker = startWorker(job);
    worker.once('message', (outcome: CrackOutcome) => {
      void worker?.terminate();
      if (outcome.error) reject(new Error(outcome.error));
      else resolve(outcome);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`weak-secret worker exited with code ${code}`));
    });
  });
  promise.catch(() => undefined); // callers observe it; an abandoned search must not be an unhandled rejection
  return { promise, waiting: 0, terminate: () => void worker?.terminate() };
}

/** Searches the HMAC secret of an HS* token over its original signing input bytes. */
export function crackHmacSecret(jwt: UnverifiedJwt, alg: HmacAlg, options: CrackOptions): Promise<CrackOutcome> {
  const job: CrackJob = {
    hash: HASH[alg],
    signingInput: jwt.signingInput,
    signature: jwt.signatureSegment,
    candidates: options.candidates,
    files: options.files ?? [],
  };
  const signal = options.signal;
  if (signal?.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  const key = keyOf(job);
  const done = key === undefined ? undefined : finished.get(key);
  if (done) return Promise.resolve(done);

  let search = key === undefined ? undefined : running.get(key);
  if (!search) {
    const started = runWorker(job);
    search = started;
    if (key !== undefined) {
      running.set(key, started);
      started.promise.then(
        (outcome) => {
          if (running.get(key) === started) running.delete(key);
          if (finished.size >= FINISHED_LIMIT) finished.delete(finished.keys().next().value!);
          finished.set(key, outcome);
        },
        () => {
          if (running.get(key) === started) running.delete(key);
        },
      );
    }
  }
  const shared = search;
  shared.waiting += 1;
  return new Promise<CrackOutcome>((resolve, reject) => {
    const onAbort = (): void => {
      shared.waiting -= 1;
      if (shared.waiting === 0) {
        shared.terminate();
        if (key !== undefined && running.get(key) === shared) running.delete(key);
      }
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    shared.promise.then(
      (outcome) => {
        signal?.removeEventListener('abort', onAbort);
        shared.waiting -= 1;
        resolve(outcome);
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        shared.waiting -= 1;
        reject(error instanceof Error ? error : new Error('the secret search failed', { cause: error }));
      },
    );
  });
}
