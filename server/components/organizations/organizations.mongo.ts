/** Organizations on MongoDB: the contract of the embedded repository; `_id` is the `org_…` id. */
import mongoose, { type Connection } from 'mongoose';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import { newId } from '../../ids.js';
import type { OrganizationRepository } from './organizations.repository.js';
import { organizationModel, toOrganization, type OrganizationDocument } from './organizations.schema.js';

export function createMongoOrganizationRepository(
  connection: Connection,
  options: { clock?: () => Date } = {},
): OrganizationRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const clock = options.clock ?? (() => new Date());
  const Organizations = organizationModel(connection);

  return {
    async get(id) {
      const doc = await Organizations.findById(id).lean<OrganizationDocument>().maxTimeMS(maxTimeMS);
      return doc ? toOrganization(doc) : null;
    },
    async getMany(ids) {
      if (ids.length === 0) return [];
      const docs = await Organizations.find({ _id: mongoose.trusted({ $in: [...new Set(ids)] }) })
        .sort({ _id: 1 })
        .lean<OrganizationDocument[]>()
        .maxTimeMS(maxTimeMS);
      return docs.map(toOrganization);
    },
    async create(input) {
      const id = input.id ?? newId('org');
      const doc = { _id: id, name: input.name, plan: input.plan, createdAt: clock() };
      try {
        await Organizations.create([doc]);
      } catch (error) {
        if (isDuplicateKey(error)) throw new Error(`organization ${id} already exists`);
        throw error;
      }
      return toOrganization(doc);
    },
    async upsert(input) {
      const doc = await Organizations.findOneAndUpdate(
        { _id: input.id },
        // createdAt only on insert: re-seeding keeps the original (mongoose allows immutable paths in $setOnInsert).
        { $set: { name: input.name, plan: input.plan }, $setOnInsert: { createdAt: input.createdAt ?? clock() } },
        { upsert: true, returnDocument: 'after', runValidators: true, maxTimeMS },
      ).lean<OrganizationDocument>();
      return toOrganization(doc);
    },
    async setPlan(id, plan) {
      const doc = await Organizations.findOneAndUpdate(
        { _id: id },
        { $set: { plan } },
        {
          returnDocument: 'after',
          runValidators: true,
          maxTimeMS,
        },
      ).lean<OrganizationDocument>();
      return doc ? toOrganization(doc) : null;
    },
  };
}
