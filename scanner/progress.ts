/**
 * The progress bar (cli-progress) on stderr, only when stderr is a terminal and --no-progress is not given. It counts
 * (check, operation) pairs: operations × checks, a once-per-scan check counting once.
 */
import cliProgress from 'cli-progress';
import type { CliIo } from './cli-io.js';

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const none: Progress = { update() {}, stop() {} };

export function createProgress(io: CliIo, enabled: boolean, label = 'checks'): Progress {
  const tty = io.isTTY ?? io.stderr.isTTY ?? false;
  if (!enabled || !tty) return none;
  const bar = new cliProgress.SingleBar(
    { stream: io.stderr as unknown as NodeJS.WritableStream, format: `Scanning {bar} {value}/{total} (${label})`, hideCursor: true, clearOnComplete: true },
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
