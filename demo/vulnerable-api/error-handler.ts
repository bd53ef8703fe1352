/**
 * The demo API's one error edge. Vulnerable twin: answers like a development build — the error's message and its
 * stack trace, database and parser errors included. Secure twin: a generic message with the status only.
 */
import type { NextFunction, Request, Response } from 'express';

export function errorHandler(secure: boolean) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction): void => {
    const status =
      typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (secure) return void res.status(status).json({ error: status >= 500 ? 'internal error' : 'bad request' });
    const err = error instanceof Error ? error : new Error(String(error));
    res.status(status).json({ error: err.message, name: err.name, stack: err.stack });
  };
}
