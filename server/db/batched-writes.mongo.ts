/**
 * Group-committed inserts and deletes by `_id` on one MongoDB collection (write-batcher.ts says why). An insert
 * batch is one unordered `insertMany`: a document refused by the server (a duplicate `_id`, above all) fails only
 * its own caller, with the server's error (so `isDuplicateKey` reads it as before); anything else — the database
 * unreachable, a write concern not met — fails every caller of the batch, whose outcome is then unknown, and an
 * unreachable database also fails at once the callers queued behind it (nothing of theirs was sent).
 */
import mongoose from 'mongoose';
import { isDatabaseUnavailable } from './database-errors.js';
import { createWriteBatcher, type BatcherOptions, type WriteBatcher } from './write-batcher.js';

// The driver mongoose runs on (no second copy of it).
const { MongoBulkWriteError, MongoServerError } = mongoose.mongo;
type Collection<T extends mongoose.mongo.Document> = mongoose.mongo.Collection<T>;

interface WriteErrorShape {
  index: number;
  code: number;
  errmsg?: string;
}

/**
 * The per-document errors of an unordered insertMany, by index — only when they account for every document
 * (inserted, or refused on its own). Otherwise undefined and the whole batch's outcome is unknown: a command-level
 * refusal (should the driver's bulk code file it as the first document's error), a lost connection, a write
 * concern not met.
 */
function documentErrors(error: unknown, size: number): unknown[] | undefined {
  if (!(error instanceof MongoBulkWriteError) || error.result?.getWriteConcernError?.()) return undefined;
  const writeErrors = ([] as WriteErrorShape[]).concat(
    (error.writeErrors ?? []) as unknown as WriteErrorShape | WriteErrorShape[],
  );
  if (writeErrors.length === 0 || error.insertedCount + writeErrors.length !== size) return undefined;
  const outcomes: unknown[] = Array.from({ length: size }, () => undefined);
  // The driver's WriteError is not an Error: each caller gets a server error with the same code and message.
  for (const { index, code, errmsg } of writeErrors)
    outcomes[index] = new MongoServerError({ message: errmsg ?? 'write error', code, errmsg });
  return outcomes;
}

/**
 * What fails a whole batch: a driver failure the bulk error wraps (a lost connection, above all) as itself, so it
 * reads as the database being unavailable (503) as an insertOne's would.
 */
function batchError(error: unknown): unknown {
  if (error instanceof MongoBulkWriteError && error.errorResponse instanceof Error) return error.errorResponse;
  return error;
}

/** A mongoose model's collection as the driver's, typed by the model's documents (mongoose leaves it untyped). */
export function collectionOf<T extends mongoose.mongo.Document>(model: mongoose.Model<T>): Collection<T> {
  return model.collection as unknown as Collection<T>;
}

/** How long the server may take for one batch's command (the connection's DB_QUERY_TIMEOUT_MS). */
interface CommandLimit {
  maxTimeMS: number;
}

export function batchedInserts<T extends mongoose.mongo.Document>(
  collection: Collection<T>,
  { maxTimeMS }: CommandLimit,
): WriteBatcher<mongoose.mongo.OptionalUnlessRequiredId<T>> {
  return createWriteBatcher(
    async (documents) => {
      try {
        await collection.insertMany(documents, { ordered: false, maxTimeMS });
      } catch (error) {
        const outcomes = documentErrors(error, documents.length);
        if (!outcomes) throw batchError(error);
        return outcomes;
      }
      return undefined;
    },
    { failsQueued: isDatabaseUnavailable },
  );
}

/** Deletes by `_id`, many in one `deleteMany`; an id not there is no error (deleting is idempotent). */
export function batchedDeletes<T extends { _id: string }>(
  collection: Collection<T>,
  { maxTimeMS, ...options }: CommandLimit & BatcherOptions,
): WriteBatcher<string> {
  return createWriteBatcher(
    async (ids) => {
      await collection.deleteMany({ _id: { $in: [...new Set(ids)] } } as mongoose.mongo.Filter<T>, { maxTimeMS });
      return undefined;
    },
    { failsQueued: isDatabaseUnavailable, ...options },
  );
}
