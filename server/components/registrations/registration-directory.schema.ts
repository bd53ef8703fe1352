/**
 * Registration directories (MongoDB only): one document per organization (`_id` = its id) listing its registrations
 * in keyset order, so an organization's count, its quota check and a small organization's list read a collection
 * of one document per organization by `{ _id }` instead of counting or filtering the registrations by
 * `organizationId` — which FerretDB 1.24 does document by document across every organization's records (a
 * 3-registration organization's list and capabilities took 4–5 s or answered 503 at 10k registrations). A
 * directory stops being kept once it lists DIRECTORY_LIMIT registrations (`overflow`): that organization's lists and
 * counts go back to the compound indexes, which MongoDB uses and FerretDB does not.
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

/** Registrations a directory lists at most; above, the organization is read through the indexes. */
export const DIRECTORY_LIMIT = 1000;

export const registrationDirectorySchema = new Schema(
  {
    /** The organization id. */
    _id: { type: String, required: true, immutable: true },
    /**
     * The entries in (at, id) order, one line each — `<at ms> <since ms> <id>` — in one string: FerretDB 1.24
     * converts an array of subdocuments field by field (12–18 ms to write 200 entries, measured), a string at once
     * (2 ms for 1000).
     */
    entries: { type: String, default: '' },
    /** Set for good once the organization held more than DIRECTORY_LIMIT registrations. */
    overflow: { type: Boolean },
  },
  { collection: 'registration_directories', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

/**
 * A listed registration: its id, its `createdAt` (entries are kept in (at, id) order, the lists' keyset order) and
 * when the entry was written (this server's clock: an entry whose record never landed is dropped after a while).
 */
export type DirectoryEntry = { id: string; at: Date; since: Date };

export function packEntries(entries: readonly DirectoryEntry[]): string {
  return entries.map((entry) => `${entry.at.getTime()} ${entry.since.getTime()} ${entry.id}`).join('\n');
}

export function unpackEntries(packed: string | null | undefined): DirectoryEntry[] {
  if (!packed) return [];
  return packed.split('\n').map((line) => {
    const [at, since, id] = line.split(' ');
    return { id, at: new Date(Number(at)), since: new Date(Number(since)) };
  });
}
export type RegistrationDirectoryDocument = InferSchemaType<typeof registrationDirectorySchema>;

export function registrationDirectoryModel(connection: Connection): Model<RegistrationDirectoryDocument> {
  return (connection.models.RegistrationDirectory ??
    connection.model('RegistrationDirectory', registrationDirectorySchema)) as Model<RegistrationDirectoryDocument>;
}
