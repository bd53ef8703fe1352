/**
 * Secret notices on MongoDB: one document per 10-minute bucket (`_id` its start in ms), notices pushed into it, and
 * one `_id: 'cursor'` document saying which bucket comes next. Every read and write is by `_id`.
 */
import { Schema, type Connection, type Model } from 'mongoose';
import { copyPlain } from '../../../lib/copy-plain.js';
import { queryTimeoutMs } from '../../db/query-limits.js';
import {
  bucketOf,
  NOTICE_BUCKET_MS,
  type SecretNotice,
  type SecretNoticeRepository,
} from './secret-notices.repository.js';

const CURSOR = 'cursor';

export const secretNoticeSchema = new Schema(
  {
    /** A bucket's start (ms, as a string), or `cursor`. */
    _id: { type: String, required: true, immutable: true },
    notices: { type: [Schema.Types.Mixed], default: undefined },
    /** On the cursor: the start of the next bucket to handle. */
    next: { type: Number },
  },
  { collection: 'secret_notices', strict: 'throw', strictQuery: 'throw', versionKey: false, id: false },
);

interface NoticeDocument {
  _id: string;
  notices?: SecretNotice[];
  next?: number;
}

export function createMongoSecretNoticeRepository(connection: Connection): SecretNoticeRepository {
  const Notices = (connection.models.SecretNotice ??
    connection.model('SecretNotice', secretNoticeSchema)) as Model<NoticeDocument>;
  const maxTimeMS = queryTimeoutMs(connection);
  const read = (id: string) => Notices.findOne({ _id: id }).lean<NoticeDocument>().maxTimeMS(maxTimeMS);

  return {
    async schedule(notices) {
      const byBucket = new Map<number, SecretNotice[]>();
      for (const notice of notices)
        byBucket.set(bucketOf(notice.at), [...(byBucket.get(bucketOf(notice.at)) ?? []), copyPlain(notice)]);
      for (const [bucket, added] of byBucket)
        await Notices.updateOne(
          { _id: String(bucket) },
          { $push: { notices: { $each: added } } },
          { upsert: true, maxTimeMS },
        );
    },
    async due(now, maxBuckets) {
      let cursor = (await read(CURSOR))?.next;
      if (cursor === undefined) {
        cursor = bucketOf(now);
        await Notices.updateOne({ _id: CURSOR }, { $set: { next: cursor } }, { upsert: true, maxTimeMS });
      }
      let next = cursor;
      const notices: SecretNotice[] = [];
      for (let n = 0; n < maxBuckets && next + NOTICE_BUCKET_MS <= now.getTime(); n += 1) {
        notices.push(...((await read(String(next)))?.notices ?? []));
        next += NOTICE_BUCKET_MS;
      }
      return next === cursor ? null : { notices, next };
    },
    async taken(next) {
      const cursor = (await read(CURSOR))?.next ?? next;
      for (let bucket = Math.min(cursor, next); bucket < next; bucket += NOTICE_BUCKET_MS)
        await Notices.deleteOne({ _id: String(bucket) }, { maxTimeMS });
      await Notices.updateOne({ _id: CURSOR }, { $set: { next: Math.max(cursor, next) } }, { upsert: true, maxTimeMS });
    },
  };
}
