/**
 * pino, JSON lines; one owner of stdout per process. Tokens and secrets are redacted wherever they appear. Without
 * an explicit destination, a terminal gets short readable lines instead (lib/logger-terminal.ts).
 */
import { pino, type Logger, type DestinationStream } from 'pino';
import { terminalDestination } from './logger-terminal.js';

export type { Logger };

/** pino's levels, the choices of every part's log-level setting. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'token',
  'clientSecret',
  'client_secret',
  'password',
];

export function createLogger(options: { level?: string; name?: string } = {}, destination?: DestinationStream): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      name: options.name,
      redact: { paths: redactPaths, censor: '[redacted]' },
      base: undefined,
    },
    destination ?? (process.stdout.isTTY ? terminalDestination(process.stdout) : undefined),
  );
}

/** A logger that drops everything: the default for tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });
