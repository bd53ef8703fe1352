/** What `runScan` is given: the operations, exactly the checks to run, and the scan-wide settings. */
import type { CheckLog, Operation } from '../api.js';
import type { TlsOptions } from '../http.js';
import type { IdentitySpec } from '../model/identity-spec.js';
import type { Rate } from '../rate-limiter.js';
import type { ScanKind, ScannedCheck } from '../scan-result.js';

export interface ScanInput {
  kind: ScanKind;
  operations: Operation[];
  checks: ScannedCheck[];
  /**
   * Values the user gave for the checks' declared options, by option name (`jwtSecretsFile`, `asOther`…); each check
   * receives only the ones it declared, with its defaults.
   */
  options?: Record<string, unknown>;
  rate?: Rate;
  concurrency?: number;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  checkTimeoutMs?: number;
  followRedirects?: boolean;
  maxRedirects?: number;
  /** `--max-body`: decoded bytes of each response body kept (default 5 MiB, scanner/read-body.ts). */
  maxBodyBytes?: number;
  tls?: TlsOptions;
  proxy?: string;
  /**
   * The API model's input (docs/architecture.md §2.8): every operation of the scan before `--shard` slices them, the
   * OpenAPI description, and whether the operations are the user's own requests (a curl command). Without it the model
   * is built from `operations`.
   */
  model?: { operations: Operation[]; document?: Record<string, unknown>; given?: boolean };
  /** Scan identities besides the supplied credential (`--identity`, a config file); `--as-other` joins as `other`. */
  identities?: IdentitySpec[];
  /** `--allow-destructive`: destructive operations may be sent (else the HTTP layer refuses them). */
  allowDestructive?: boolean;
  /** `--per-operation`: every check judges every operation itself, no verdict is shared (`sharedVerdict`). */
  perOperation?: boolean;
  /** The identity canary: re-validate the credential at least every this many requests (off when not given). */
  canaryEvery?: number;
  /**
   * Sharded scans: once-per-scan checks run on `operation` (the unsharded scan's first operation, which may lie in
   * another slice) and are reported only when `report` is true (the first slice), so the slices' reports merge into
   * the unsharded scan's. Other slices still run them, unreported, for the checks that read their facts.
   */
  oncePerScan?: { operation: Operation; report: boolean };
  onProgress?: (done: number, total: number) => void;
  /** Diagnostics from checks (`ctx.log`); silent by default. */
  log?: CheckLog;
  signal?: AbortSignal;
}
