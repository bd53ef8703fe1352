/**
 * Runs the weak-secret search in a worker thread (`weak-secret-worker`) and resolves with its outcome; an abort
 * terminates the worker. Works from source (tsx) and from dist.
 */
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { HmacAlg } from './algorithms.js';
import type { UnverifiedJwt } from './parse-unverified.js';
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

/** Searches the HMAC secret of an HS* token over its original signing input bytes. */
export function crackHmacSecret(jwt: UnverifiedJwt, alg: HmacAlg, options: CrackOptions): Promise<CrackOutcome> {
  const job: CrackJob = {
    hash: HASH[alg],
    signingInput: jwt.signingInput,
    signature: jwt.signatureSegment,
    candidates: options.candidates,
    files: options.files ?? [],
  };
  return new Promise<CrackOutcome>((resolve, reject) => {
    const signal = options.signal;
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const worker = startWorker(job);
    const onAbort = (): void => {
      void worker.terminate();
      reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    worker.once('message', (outcome: CrackOutcome) => {
      done();
      void worker.terminate();
      if (outcome.error) reject(new Error(outcome.error));
      else resolve(outcome);
    });
    worker.once('error', (error) => {
      done();
      reject(error);
    });
    worker.once('exit', (code) => {
      done();
      if (code !== 0) reject(new Error(`weak-secret worker exited with code ${code}`));
    });
  });
}
