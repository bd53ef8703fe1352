/** Turns a conditional-write miss into the answer a client can act on (docs/architecture.md §1.4): 404, 412 or 409. */
import type { AppError } from '../../../lib/app-error.js';
import { apiError } from '../../errors.js';
import type { WriteMiss } from '../../db/conditional-write.js';
import { etagOf } from '../../http/etag.js';
import { invalidTransition } from './state-machine.js';

export function writeMissError(
  reason: WriteMiss,
  action: string,
  current?: { status: string; revision: number },
  guardError?: () => AppError,
): AppError {
  switch (reason) {
    case 'not_found':
      return apiError('not_found', 'No such resource.');
    case 'stale_revision':
      return apiError('precondition_failed', 'If-Match does not match the current ETag; read the resource again.', {
        headers: current ? { ETag: etagOf(current.revision) } : {},
      });
    case 'invalid_status':
      return invalidTransition(action, current?.status ?? 'unknown');
    case 'guard_failed':
      return guardError ? guardError() : apiError('conflict', 'The resource changed while the request ran; try again.');
  }
}
