/**
 * Stands in for idp/create-idp.ts when the Node IdP's relying-party tests run against the worker
 * (target-worker.mjs redirects their import here): same export, the IdP served by workerd. Each start is
 * noted in the file IDP_WORKER_TARGET_LOG names, so the runner can tell the worker really served the suites.
 */
import { appendFileSync } from 'node:fs';
import type { IdpOptions } from '../../../../idp/settings.js';
import type { RunningIdp } from '../../../../idp/create-idp.js';
import { createWorkerIdp } from './worker-idp.js';

export type { RunningIdp };

export async function createIdp(options: IdpOptions = {}): Promise<RunningIdp> {
  const idp = await createWorkerIdp(options);
  if (process.env.IDP_WORKER_TARGET_LOG) appendFileSync(process.env.IDP_WORKER_TARGET_LOG, `${idp.url}\n`);
  return idp;
}
