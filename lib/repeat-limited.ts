/**
 * A warning that can repeat in bursts (e.g. "JWKS refetch budget exhausted" under a scan): the first one is logged
 * at once, the repeats within the window become one line with their count when the window closes.
 */
import type { Logger } from './logger.js';

export function repeatLimited(logger: Logger, message: string, windowMs = 60_000): () => void {
  let repeats = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (repeats === 0) {
      timer = undefined;
      return;
    }
    logger.warn(
      { repeated: repeats },
      `${message} (${repeats} more in the last ${windowMs >= 1000 ? `${Math.round(windowMs / 1000)} s` : `${windowMs} ms`})`,
    );
    repeats = 0;
    timer = setTimeout(flush, windowMs);
    // A pending count never keeps the process alive.
    timer.unref();
  };
  return () => {
    if (timer) {
      repeats += 1;
      return;
    }
    logger.warn(message);
    timer = setTimeout(flush, windowMs);
    timer.unref();
  };
}
