/** What registration and change-set transitions are built from; `provisioning` only on the internal surface. */
import type { Logger } from '../../../lib/logger.js';
import type { ApiDeps } from '../../deps.js';
import type { ProvisioningHook } from '../provisioning/provisioning-hook.js';

export type ServiceDeps = Pick<ApiDeps, 'store' | 'clock'> & {
  provisioning?: ProvisioningHook;
  /** The webhook dispatcher, nudged after an event is stored (on the surface that runs it). */
  webhooks?: { kick(): void };
  logger?: Pick<Logger, 'warn' | 'error'>;
};
