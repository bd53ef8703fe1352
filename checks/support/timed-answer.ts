/**
 * The answer to a timed probe (a sleep asked of a shell or a database), or undefined when it was cut at its time
 * limit or dropped: a hang proves nothing, so the probe just ends. The scan's own abort still ends the check.
 */
import type { ProbeResponse } from '../../scanner/api.js';

export async function timedAnswer(
  signal: AbortSignal,
  send: () => Promise<ProbeResponse>,
): Promise<ProbeResponse | undefined> {
  try {
    return await send();
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}
