/** The mongoose schema of organizations; the stored type is inferred and checked against the domain `Organization`. */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';
import { PLANS, type Organization } from './organizations.model.js';

export const organizationSchema = new Schema(
  {
    _id: { type: String, required: true, immutable: true },
    name: { type: String, required: true },
    plan: { type: String, enum: PLANS, required: true },
    createdAt: { type: Date, required: true, immutable: true },
  },
  { collection: 'organizations', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

export type OrganizationDocument = InferSchemaType<typeof organizationSchema>;

export function organizationModel(connection: Connection): Model<OrganizationDocument> {
  return (connection.models.Organization ??
    connection.model('Organization', organizationSchema)) as Model<OrganizationDocument>;
}

export function toOrganization(doc: OrganizationDocument): Organization {
  return { id: doc._id, name: doc.name, plan: doc.plan, createdAt: doc.createdAt };
}

type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
const sameFields: SameKeys<Omit<OrganizationDocument, '_id'>, Omit<Organization, 'id'>> = true;
void sameFields;
