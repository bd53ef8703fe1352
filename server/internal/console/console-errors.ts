/** The console's own refusals (rendered as pages, never as the API's JSON envelope): each code once, with its status. */
import { AppError } from '../../../lib/app-error.js';

const consoleErrorCodes = {
  not_signed_in: { status: 401, doc: 'A form was sent without a live console session.' },
  not_a_reviewer: { status: 403, doc: 'The signed-in account has neither gatehouse:review nor gatehouse:admin.' },
  admin_only: {
    status: 403,
    doc: 'The operation needs gatehouse:admin (API Access changes; suspend, unsuspend, deprecate).',
  },
  csrf_failed: { status: 403, doc: "A form came without the session's CSRF token, or from another origin." },
  idp_unavailable: { status: 503, doc: 'The identity provider could not be reached to start a sign-in.' },
} as const satisfies Record<string, { status: number; doc: string }>;

type ConsoleErrorCode = keyof typeof consoleErrorCodes;

export function consoleError(code: ConsoleErrorCode, message: string): AppError {
  return new AppError(code, message, { status: consoleErrorCodes[code].status });
}
