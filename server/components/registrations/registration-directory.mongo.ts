/**
 * The registration directories of MongoDB organizations (registration-directory.schema.ts says why they exist):
 * read by `{ _id }`, changed only under the organization's write lock — the quota lock creates already take — so
 * two instances never lose each other's entries on FerretDB, whose updates are read-then-write. An organization
 * without a directory has no registration (db:migrate writes one for every organization that had some).
 * Creates reserve their entries in batches: what arrives for an organization while its directory is being written
 * goes into the next write, one lock for all of them (one lock per create made concurrent creates queue on it).
 */
import type { Connection } from 'mongoose';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import {
  DIRECTORY_LIMIT,
  packEntries,
  registrationDirectoryModel,
  unpackEntries,
  type DirectoryEntry,
  type RegistrationDirectoryDocument,
} from './registration-directory.schema.js';

/** An organization's directory: its entries in (at, id) order, or `overflow` once it outgrew DIRECTORY_LIMIT. */
type Directory = { overflow: false; entries: DirectoryEntry[] } | { overflow: true };

/** What an edit under the lock decides: the entries to store (unchanged when absent) and the edit's result. */
interface DirectoryEdit<T> {
  entries?: DirectoryEntry[];
  result: T;
}

/** A create's reservation: its entry, the plan's limit (null: none) and its Idempotency-Key, if any. */
interface ReservationRequest {
  entry: DirectoryEntry;
  max: number | null;
  idempotencyKey?: string;
}

type Reservation =
  | { kind: 'reserved' }
  /** The directory is no longer kept: count through the indexes. */
  | { kind: 'overflow' }
  | { kind: 'limit_reached' }
  /** At the limit, and a registration of the organization carries the same key (a retried create): its id. */
  | { kind: 'key_taken'; id: string };

/** What a reservation at the limit reads: the listed records (by `{ _id }`), null where there is none. */
export type ReadListed = (ids: readonly string[]) => Promise<({ idempotencyKey?: string | null } | null)[]>;

/**
 * How long an entry whose record is not there is kept: far beyond any create still on its way (the fault suite
 * stalls the database for 10 s); after it, the create is taken as never landed and the entry may be dropped.
 */
export const ENTRY_HORIZON_MS = 10 * 60_000;

export interface RegistrationDirectories {
  read(organizationId: string): Promise<Directory>;
  /** Whether the organization's directory overflowed (for good: remembered without a read once seen). */
  overflowed(organizationId: string): Promise<boolean>;
  /**
   * Counts and reserves a create's entry as one step for its organization (a count-then-insert race could pass the
   * limit); the entry comes before the record, so no list misses a record that landed.
   */
  reserve(organizationId: string, request: ReservationRequest): Promise<Reservation>;
  /** Runs `edit` under the organization's lock with its current directory, and stores the entries it returns. */
  edit<T>(organizationId: string, edit: (directory: Directory) => Promise<DirectoryEdit<T>>): Promise<T>;
  /** Lists the registration (or moves it to its `at`), unless the directory overflowed. */
  put(organizationId: string, entry: DirectoryEntry): Promise<void>;
  /** Drops the registrations from the directory (a delete, a create that never landed). */
  remove(organizationId: string, ids: readonly string[]): Promise<void>;
}

/** Keyset order of entries: (at, id) ascending, as the lists. */
export function compareEntries(a: { at: Date; id: string }, b: { at: Date; id: string }): number {
  return a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** `entries` with `entry` in its place (an entry of the same id replaced). */
function withEntry(entries: readonly DirectoryEntry[], entry: DirectoryEntry): DirectoryEntry[] {
  const next = entries.filter((e) => e.id !== entry.id);
  let index = next.length;
  while (index > 0 && compareEntries(next[index - 1], entry) > 0) index -= 1;
  next.splice(index, 0, entry);
  return next;
}

interface Waiting {
  request: ReservationRequest;
  resolve(reservation: Reservation): void;
  reject(error: unknown): void;
}

export function createRegistrationDirectories(
  connection: Connection,
  locks: WriteLocks,
  readListed: ReadListed,
): RegistrationDirectories {
  const maxTimeMS = queryTimeoutMs(connection);
  const Directories = registrationDirectoryModel(connection);

  /** Organizations seen overflowed: an overflow is never undone, so it is not read again. */
  const overflowedOnes = new Set<string>();

  async function read(organizationId: string): Promise<Directory> {
    if (overflowedOnes.has(organizationId)) return { overflow: true };
    const doc = await Directories.findOne({ _id: organizationId })
      .lean<RegistrationDirectoryDocument>()
      .maxTimeMS(maxTimeMS);
    if (doc?.overflow) {
      overflowedOnes.add(organizationId);
      return { overflow: true };
    }
    return { overflow: false, entries: unpackEntries(doc?.entries) };
  }

  async function edit<T>(organizationId: string, change: (directory: Directory) => Promise<DirectoryEdit<T>>) {
    // The quota lock: a create counts and reserves its entry in one step (registrations.mongo.ts).
    return locks.withLock(`registration-quota:${organizationId}`, async () => {
      const directory = await read(organizationId);
      const { entries, result } = await change(directory);
      if (entries && !directory.overflow) {
        const overflow = entries.length > DIRECTORY_LIMIT;
        await Directories.replaceOne(
          { _id: organizationId },
          overflow ? { entries: '', overflow: true } : { entries: packEntries(entries) },
          { upsert: true, maxTimeMS },
        );
      }
      return result;
    });
  }

  /** `entries` without those whose record is not there and whose entry is older than ENTRY_HORIZON_MS. */
  async function withoutVanished(entries: DirectoryEntry[]): Promise<DirectoryEntry[]> {
    const docs = await readListed(entries.map((entry) => entry.id));
    const horizon = Date.now() - ENTRY_HORIZON_MS;
    const kept = entries.filter((entry, i) => docs[i] !== null || entry.since.getTime() > horizon);
    return kept.length === entries.length ? entries : kept;
  }

  /** Decides a batch of reservations in order against one reading of the directory. */
  async function decide(directory: Directory, batch: Waiting[]): Promise<DirectoryEdit<Reservation[]>> {
    if (directory.overflow) return { result: batch.map(() => ({ kind: 'overflow' })) };
    let entries = directory.entries;
    let checked = false;
    const result: Reservation[] = [];
    for (const { request } of batch) {
      if (request.max !== null && entries.length >= request.max) {
        // At the limit: entries of creates that never landed do not count.
        if (!checked) entries = await withoutVanished(entries);
        checked = true;
      }
      if (request.max !== null && entries.length >= request.max) {
        const docs = request.idempotencyKey === undefined ? [] : await readListed(entries.map((entry) => entry.id));
        const index = docs.findIndex((doc) => doc?.idempotencyKey === request.idempotencyKey);
        result.push(index >= 0 ? { kind: 'key_taken', id: entries[index].id } : { kind: 'limit_reached' });
      } else {
        entries = withEntry(entries, request.entry);
        result.push({ kind: 'reserved' });
      }
    }
    return { entries: entries === directory.entries ? undefined : entries, result };
  }

  const queues = new Map<string, Waiting[]>();
  async function drain(organizationId: string): Promise<void> {
    for (;;) {
      const batch = queues.get(organizationId) ?? [];
      if (batch.length === 0) {
        queues.delete(organizationId);
        return;
      }
      queues.set(organizationId, []);
      try {
        const decided = await edit(organizationId, (directory) => decide(directory, batch));
        batch.forEach((waiting, i) => waiting.resolve(decided[i]));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
  }

  return {
    read,
    async overflowed(organizationId) {
      return (await read(organizationId)).overflow;
    },
    reserve(organizationId, request) {
      return new Promise<Reservation>((resolve, reject) => {
        const queue = queues.get(organizationId);
        if (queue) queue.push({ request, resolve, reject });
        else {
          queues.set(organizationId, [{ request, resolve, reject }]);
          void drain(organizationId);
        }
      });
    },
    edit,
    async put(organizationId, entry) {
      await edit(organizationId, async (directory) => ({
        entries: directory.overflow ? undefined : withEntry(directory.entries, entry),
        result: undefined,
      }));
    },
    async remove(organizationId, ids) {
      await edit(organizationId, async (directory) => {
        if (directory.overflow || !directory.entries.some((entry) => ids.includes(entry.id)))
          return { result: undefined };
        return { entries: directory.entries.filter((entry) => !ids.includes(entry.id)), result: undefined };
      });
    },
  };
}
