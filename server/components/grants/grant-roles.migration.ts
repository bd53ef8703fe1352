/**
 * The migration step of team roles (schema version 6): grants stored before roles existed become `owner`, what they
 * gave. Idempotent (only grants without a role are written). Until it runs, those grants already read as `owner`
 * (grants.model.ts), so the order of a rolling upgrade does not matter for them; what it does not cover is an
 * instance of the older build, which ignores roles altogether until it is replaced (docs/architecture.md §1.11).
 */
import mongoose, { type Connection } from 'mongoose';
import { ROLE_OF_GRANTS_WITHOUT_ONE } from './grants.model.js';
import { grantModel } from './grants.schema.js';

/** The schema version whose migration gives grants their roles. */
export const GRANT_ROLES_SCHEMA_VERSION = 6;

/** Gives every grant without a role the `owner` role; the number of grants written. */
export async function giveGrantsRoles(connection: Connection): Promise<number> {
  const result = await grantModel(connection).updateMany(
    // sanitizeFilter is on for the connection: the operator is ours, marked trusted.
    { role: mongoose.trusted({ $exists: false }) },
    { $set: { role: ROLE_OF_GRANTS_WITHOUT_ONE } },
  );
  return result.modifiedCount;
}
