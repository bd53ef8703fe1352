/**
 * Schema 5: the provisioning worker finds work in `provisioning_due` and a registration's steps are listed in
 * `provisioning_step_lists` (components/provisioning/provisioning.schema.ts), no longer by filtering the steps.
 * Gives every step an older build stored its list entry, and every unfinished one its due document; drops the index
 * the worker's old query used. Runs once, when migrating a database from below version 5 (it reads every step).
 */
import type { Connection } from 'mongoose';

const OBSOLETE_INDEX = 'status_1_createdAt_1';

interface StepDocument {
  _id: string;
  organizationId: string;
  registrationId: string;
  status: string;
  nextAttemptAt: Date;
  leaseUntil?: Date;
  createdAt: Date;
}

/** Writes the lists and due documents of the stored steps; the number of steps looked at. */
export async function upgradeProvisioning(connection: Connection): Promise<number> {
  const db = connection.db!;
  const lists = new Map<string, { organizationId: string; steps: StepDocument[] }>();
  let count = 0;
  for await (const step of db.collection<StepDocument>('provisioning_steps').find()) {
    count += 1;
    const list = lists.get(step.registrationId) ?? { organizationId: step.organizationId, steps: [] };
    list.steps.push(step);
    lists.set(step.registrationId, list);
    const dueAt =
      step.status === 'pending' ? step.nextAttemptAt : step.status === 'in_progress' ? step.leaseUntil : undefined;
    if (dueAt)
      await db
        .collection<{ _id: string }>('provisioning_due')
        .replaceOne({ _id: step._id }, { dueAt }, { upsert: true });
  }
  for (const [registrationId, list] of lists) {
    const stepIds = list.steps.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((step) => step._id);
    await db
      .collection<{ _id: string }>('provisioning_step_lists')
      .replaceOne({ _id: registrationId }, { organizationId: list.organizationId, stepIds }, { upsert: true });
  }
  try {
    await db.collection('provisioning_steps').dropIndex(OBSOLETE_INDEX);
  } catch (error) {
    // NamespaceNotFound, IndexNotFound: nothing to drop.
    if (![26, 27].includes((error as { code?: number }).code ?? 0)) throw error;
  }
  return count;
}
