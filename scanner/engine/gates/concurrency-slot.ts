/**
 * `--concurrency`: the task takes one of the scan's slots (arrival order) and holds it until it ends; the runner
 * releases it (`task.release`) whichever step ends the task.
 */
import type { CheckTask } from '../check-task.js';

export default async function concurrencySlot(task: CheckTask): Promise<undefined> {
  task.release = await task.run.slots.acquire();
  return undefined;
}
