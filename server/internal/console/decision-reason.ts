/** The console asks a reason for every decision (the audit log says why), including approvals. */
import { apiError } from '../../errors.js';

const MAX_REASON_LENGTH = 2000;

export function requireReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0) {
    throw apiError('validation_failed', 'A reason is required for every decision.', {
      fields: [{ path: 'reason', message: 'is required' }],
    });
  }
  if (trimmed.length > MAX_REASON_LENGTH) {
    throw apiError('validation_failed', `A reason has at most ${MAX_REASON_LENGTH} characters.`, {
      fields: [{ path: 'reason', message: `must be at most ${MAX_REASON_LENGTH} characters` }],
    });
  }
  return trimmed;
}
