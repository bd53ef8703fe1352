/**
 * The registration directories of MongoDB organizations (registration-directory.schema.ts says why they exist):
 * read by `{ _id }`, changed only under the organization's write lock — the quota lock creates already take — so
 * two instances never lose each other's entries on FerretDB, whose updates are read-then-write. An organization
 * without a directory has no registration (db:migrate writes one for every organization that had some).
 */
import type { Connection } from 'mongoose';
import { queryTimeoutMs } from '../../db/query-limits.js';
import type { WriteLocks } from '../../db/write-locks.js';
import {
  DIRECTORY_LIMIT,
  registrationDirectoryModel,
  type DirectoryEntry,
  type RegistrationDirectoryDocument,
} from './registration-directory.schema.js';

/** An organization's directory: its entries in (at, id) order, or `overflow` once it outgrew DIRECTORY_LIMIT. */
export type Directory = { overflow: false; entries: DirectoryEntry[] } | { overflow: true };

/** What an edit under the lock decides: the entries to store (unchanged when absent) and the edit's result. */
export interface DirectoryEdit<T> {
  entries?: DirectoryEntry[];
  result: T;
}

export interface RegistrationDirectories {
  read(organizationId: string): Promise<Directory>;
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
export function withEntry(entries: readonly DirectoryEntry[], entry: DirectoryEntry): DirectoryEntry[] {
  const next = entries.filter((e) => e.id !== entry.id);
  let index = next.length;
  while (index > 0 && compareEntries(next[index - 1], entry) > 0) index -= 1;
  next.splice(index, 0, entry);
  return next;
}

export function createRegistrationDirectories(connection: Connection, locks: WriteLocks): RegistrationDirectories {
  const maxTimeMS = queryTimeoutMs(connection);
  const Directories = registrationDirectoryModel(connection);

  async function read(organizationId: string): Promise<Directory> {
    const doc = await Directories.findOne({ _id: organizationId })
      .lean<RegistrationDirectoryDocument>()
      .maxTimeMS(maxTimeMS);
    if (doc?.overflow) return { overflow: true };
    return { overflow: false, entries: (doc?.entries ?? []) as DirectoryEntry[] };
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
          overflow ? { entries: [], overflow: true } : { entries },
          { upsert: true, maxTimeMS },
        );
      }
      return result;
    });
  }

  return {
    read,
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
