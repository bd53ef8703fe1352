/**
 * The migration step of followed client secrets (schema version 6, with grant roles): a client this service registered before it
 * followed secrets holds a secret its requester never saw (the registration answer was not kept). Its registration
 * gets a secret state without a sealed copy — issued when the client was registered, nothing to reveal — so that
 * `rotate_secret` is offered and gives the requester a working secret. Idempotent: registrations that already have
 * a secret state, and clients without a secret (public, key-authenticated, deleted), are left alone.
 */
import type { Connection } from 'mongoose';
import { registrationModel, toRegistration } from './registrations.schema.js';
import { provisionedClientModel } from '../provisioning/provisioning.schema.js';
import { usesClientSecret } from '../provisioning/secret-lifetime.js';

/** Gives those registrations their secret state; the number written. */
export async function followProvisionedSecrets(connection: Connection): Promise<number> {
  const Registrations = registrationModel(connection);
  const clients = await provisionedClientModel(connection)
    .find({})
    .select({ _id: 1, createdAt: 1, deletedAt: 1 })
    .lean<{ _id: string; createdAt: Date; deletedAt?: Date }[]>();
  let written = 0;
  for (const client of clients) {
    if (client.deletedAt) continue;
    const doc = await Registrations.findOne({ _id: client._id }).lean();
    if (!doc || doc.secret || doc.removedAt || !usesClientSecret(toRegistration(doc))) continue;
    const result = await Registrations.updateOne(
      { _id: client._id },
      { $set: { secret: { version: 1, issuedAt: client.createdAt } } },
    );
    written += result.modifiedCount;
  }
  return written;
}
