/** The one error class of the project: a machine-readable code, a message for people, and HTTP details. */

export interface FieldError {
  /** Dotted path with indexes, e.g. `config.redirectUris[2]`. */
  path: string;
  message: string;
}

export interface AppErrorOptions {
  status?: number;
  fields?: FieldError[];
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * Marks AppErrors whichever copy of this module made them: the scanner's bundle and the modules beside it (a custom
 * check's import), or a module imported both ways under a TypeScript loader, each have their own class object.
 */
const APP_ERROR = Symbol.for('gatehouse.app-error');

export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields?: FieldError[];
  readonly headers: Record<string, string>;

  constructor(code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? 500;
    this.fields = options.fields;
    this.headers = options.headers ?? {};
  }
}

Object.defineProperty(AppError.prototype, APP_ERROR, { value: true });

export function isAppError(value: unknown): value is AppError {
  return value instanceof Error && (value as { [APP_ERROR]?: unknown })[APP_ERROR] === true;
}
