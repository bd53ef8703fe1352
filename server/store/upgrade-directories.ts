/**
 * Schema 5: an organization's registrations are listed and counted through its registration directory
 * (components/registrations/registration-directory.schema.ts), and an organization without one has none. Writes
 * the directory of every organization that has registrations, from the records themselves — an overflowed one for
 * those above DIRECTORY_LIMIT. Runs once, when migrating a database from below version 5 (it reads every record).
 */
import type { Connection } from 'mongoose';
import {
  DIRECTORY_LIMIT,
  packEntries,
  type DirectoryEntry,
} from '../components/registrations/registration-directory.schema.js';

/** Writes every organization's directory; the number of organizations. */
export async function upgradeDirectories(connection: Connection, now: Date = new Date()): Promise<number> {
  const db = connection.db!;
  const byOrganization = new Map<string, DirectoryEntry[]>();
  const live = db
    .collection<{ _id: string; organizationId: string; createdAt: Date }>('registrations')
    .find({ removedAt: { $exists: false } }, { projection: { organizationId: 1, createdAt: 1 } });
  for await (const doc of live) {
    const entries = byOrganization.get(doc.organizationId) ?? [];
    entries.push({ id: doc._id, at: doc.createdAt, since: now });
    byOrganization.set(doc.organizationId, entries);
  }
  const directories = db.collection<{ _id: string }>('registration_directories');
  for (const [organizationId, entries] of byOrganization) {
    entries.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const directory =
      entries.length > DIRECTORY_LIMIT ? { entries: '', overflow: true } : { entries: packEntries(entries) };
    await directories.replaceOne({ _id: organizationId }, directory, { upsert: true });
  }
  return byOrganization.size;
}
