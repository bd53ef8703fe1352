/**
 * API-access grants on MongoDB: the contract of the embedded repository. A grant is one document; the default
 * mark is the subject's single `subject_defaults` document, so two concurrent "make default" calls leave one default.
 */
import type { Connection } from 'mongoose';
import { isDuplicateKey } from '../../db/duplicate-key.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import { ROLE_OF_GRANTS_WITHOUT_ONE, type Grant } from './grants.model.js';
import type { GrantRepository } from './grants.repository.js';
import { grantModel, subjectDefaultModel, type GrantDocument, type SubjectDefaultDocument } from './grants.schema.js';

/** Two concurrent upserts of the same new key: one inserts, the other gets E11000 and simply runs again. */
async function upsertRetrying<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKey(error)) return write();
    throw error;
  }
}

export function createMongoGrantRepository(
  connection: Connection,
  options: { clock?: () => Date } = {},
): GrantRepository {
  const maxTimeMS = queryTimeoutMs(connection);
  const clock = options.clock ?? (() => new Date());
  const Grants = grantModel(connection);
  const Defaults = subjectDefaultModel(connection);

  const toGrant = (doc: GrantDocument, defaultOrganizationId: string | undefined): Grant => ({
    organizationId: doc.organizationId,
    subject: doc.subject,
    role: doc.role ?? ROLE_OF_GRANTS_WITHOUT_ONE,
    isDefault: doc.organizationId === defaultOrganizationId,
    createdAt: doc.createdAt,
  });
  async function defaultOf(subject: string): Promise<string | undefined> {
    const doc = await Defaults.findById(subject).lean<SubjectDefaultDocument>().maxTimeMS(maxTimeMS);
    return doc?.organizationId;
  }

  return {
    async grant(input) {
      const { organizationId, subject } = input;
      // A new grant without a role is an owner's; an existing one keeps its role unless one is given.
      const role = input.role
        ? { $set: { role: input.role }, $setOnInsert: { createdAt: clock() } }
        : { $setOnInsert: { createdAt: clock(), role: ROLE_OF_GRANTS_WITHOUT_ONE } };
      const doc = await upsertRetrying(() =>
        Grants.findOneAndUpdate({ organizationId, subject }, role, {
          upsert: true,
          returnDocument: 'after',
          maxTimeMS,
        }).lean<GrantDocument>(),
      );
      if (input.isDefault) {
        await upsertRetrying(() =>
          Defaults.updateOne({ _id: subject }, { $set: { organizationId } }, { upsert: true, maxTimeMS }),
        );
      } else {
        // Unmark only if this organization is the default; another organization's mark stays.
        await Defaults.deleteOne({ _id: subject, organizationId }, { maxTimeMS });
      }
      return toGrant(doc, input.isDefault ? organizationId : undefined);
    },
    async revoke(input) {
      // The default mark goes first: a crash in between leaves a plain grant, never a default pointing nowhere.
      await Defaults.deleteOne({ _id: input.subject, organizationId: input.organizationId }, { maxTimeMS });
      const result = await Grants.deleteOne(
        { organizationId: input.organizationId, subject: input.subject },
        { maxTimeMS },
      );
      return result.deletedCount > 0;
    },
    async find(subject, organizationId) {
      const [doc, defaultId] = await Promise.all([
        Grants.findOne({ organizationId, subject }).lean<GrantDocument>().maxTimeMS(maxTimeMS),
        defaultOf(subject),
      ]);
      return doc ? toGrant(doc, defaultId) : null;
    },
    async listForSubject(subject) {
      const [docs, defaultId] = await Promise.all([
        Grants.find({ subject }).sort({ organizationId: 1 }).lean<GrantDocument[]>().maxTimeMS(maxTimeMS),
        defaultOf(subject),
      ]);
      return docs.map((doc) => toGrant(doc, defaultId));
    },
    async defaultFor(subject) {
      const defaultId = await defaultOf(subject);
      if (defaultId === undefined) return null;
      const doc = await Grants.findOne({ organizationId: defaultId, subject })
        .lean<GrantDocument>()
        .maxTimeMS(maxTimeMS);
      return doc ? toGrant(doc, defaultId) : null;
    },
  };
}
