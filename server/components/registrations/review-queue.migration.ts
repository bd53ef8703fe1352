/**
 * The migration step of the review queue's index (schema version 7): records awaiting review get their
 * `reviewQueueAt` (registrations.schema.ts), and records no longer awaiting lose it — also those an instance of the
 * older build decided after this build had queued them. It reads every registration once, so it runs only for a
 * database below version 7; older instances are stopped before migrating (docs/operations.md §3.3). Idempotent: a
 * record that already reads right is not written.
 */
import mongoose, { type Connection } from 'mongoose';
import { registrationModel } from './registrations.schema.js';

/** The schema version whose migration gives records their place in the review queue's index. */
export const REVIEW_QUEUE_SCHEMA_VERSION = 7;

/** Brings every record's `reviewQueueAt` in line with whether it awaits review; the number of records written. */
export async function queueAwaitingReview(connection: Connection): Promise<number> {
  const Registrations = registrationModel(connection);
  const exists = (yes: boolean) => mongoose.trusted({ $exists: yes });
  const awaiting = await Registrations.find({
    $or: [{ status: 'pending_review' }, { pendingChangeSetId: exists(true) }],
    removedAt: exists(false),
  })
    .select({ _id: 1, updatedAt: 1, reviewQueueAt: 1 })
    .lean<{ _id: string; updatedAt: Date; reviewQueueAt?: Date }[]>();
  let written = 0;
  for (const doc of awaiting) {
    if (doc.reviewQueueAt?.getTime() === doc.updatedAt.getTime()) continue;
    // Only if no write came between (a write of this build sets it itself).
    const result = await Registrations.updateOne(
      { _id: doc._id, updatedAt: doc.updatedAt },
      { $set: { reviewQueueAt: doc.updatedAt } },
    );
    written += result.modifiedCount;
  }
  const left = await Registrations.updateMany(
    {
      reviewQueueAt: exists(true),
      status: mongoose.trusted({ $ne: 'pending_review' }),
      pendingChangeSetId: exists(false),
    },
    { $unset: { reviewQueueAt: '' } },
  );
  return written + left.modifiedCount;
}
