/**
 * Progress on stderr, never on stdout (the report's). On a terminal, a progress bar (cli-progress); otherwise (CI
 * logs, pipes) one line every few seconds while work remains, so a long scan is never silent. --no-progress turns
 * both off. It counts (check, operation) pairs: operations × checks, a once-per-scan check counting once.
 */
import cliProgress from 'cli-progress';
import type { CliIo } from './cli-io.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export interface ProgressOptions {
  /** How often a line is written when stderr is not a terminal (default 5 s). */
  intervalMs?: number;
  now?: () => number;
}

const none: Progress = { update() {}, stop() {} };

const PROGRESS_INTERVAL_MS = 5000;

export function createProgress(io: CliIo, enabled: boolean, label = 'checks', options: ProgressOptions = {}): Progress {
  if (!enabled) return none;
  const tty = io.isTTY ?? io.stderr.isTTY ?? false;
  return tty ? progressBar(io, label) : progressLines(io, label, options);
}

function progressBar(io: CliIo, label: string): Progress {
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as unknown as NodeJS.WritableStream,
      format: `Scanning {bar} {value}/{total} (${label})`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** `scanner: 120/480 done (25%) after 10 s — 4 operations × 120 checks`, every intervalMs while unfinished. */
function progressLines(io: CliIo, label: string, options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const started = now();
  let done = 0;
  let total = 0;
  const timer = setInterval(() => {
    if (total === 0 || done >= total) return;
    const seconds = Math.round((now() - started) / 1000);
    io.stderr.write(
      `scanner: ${done}/${total} done (${Math.floor((done / total) * 100)}%) after ${seconds} s — ${label}\n`,
    );
  }, options.intervalMs ?? PROGRESS_INTERVAL_MS);
  // Progress never keeps the process alive.
  timer.unref();
  return {
    update(d, t) {
      done = d;
      total = t;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
