/**
 * Wiring of the internal surface for an entry point: provisioning from the settings (its worker polling for due
 * retries), then `createInternalApp` with the hook. `main.ts` listens on INTERNAL_PORT with `app` and calls
 * `stop()` on shutdown (the worker finishes its current step; nothing is lost, the outbox keeps the rest).
 */
import type express from 'express';
import type { ApiDeps } from '../deps.js';
import { createProvisioning, type Provisioning } from '../components/provisioning/create-provisioning.js';
import { createInternalApp, type InternalDeps } from './app.js';

/** How often the worker looks for steps whose retry time has come. */
export const PROVISIONING_POLL_MS = 1000;

export interface InternalSurface {
  app: express.Express;
  provisioning?: Provisioning;
  stop(): Promise<void>;
}

export function createInternalSurface(deps: ApiDeps, options: { console?: InternalDeps['console'] } = {}): InternalSurface {
  const provisioning = createProvisioning(deps);
  provisioning?.worker.start(PROVISIONING_POLL_MS);
  const app = createInternalApp({
    ...deps,
    ...(provisioning && { provisioning: provisioning.hook, provisioningWorker: provisioning.worker }),
    ...(options.console && { console: options.console }),
  });
  return {
    app,
    provisioning,
    async stop() {
      await provisioning?.worker.stop();
    },
  };
}
