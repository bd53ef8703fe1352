/**
 * The mongoose schemas of webhooks. Every one of these collections is read and written by `{ _id }` alone (the one
 * filter FerretDB 1.24 serves from an index) or, for the small due and inbox collections, by time:
 * - `webhooks`: one document per organization holding its subscriptions (at most 20);
 * - `webhook_inbox`: events not fanned out yet (written by transitions' outboxes, emptied by the dispatcher);
 * - `webhook_deliveries`: one delivery log per webhook (delivery-log.ts bounds it);
 * - `webhook_due`: per webhook with pending deliveries, when it next has work (what the dispatcher polls).
 */
import { Schema, type Connection, type InferSchemaType, type Model } from 'mongoose';

const strict = { strict: 'throw', strictQuery: 'throw', versionKey: false, id: false } as const;

export const webhookSubscriptionsSchema = new Schema(
  {
    /** The organization id. */
    _id: { type: String, required: true, immutable: true },
    // Plain values (webhooks.model.ts), written and read as they are.
    webhooks: { type: [Schema.Types.Mixed], required: true },
  },
  { collection: 'webhooks', ...strict },
);

export const webhookInboxSchema = new Schema(
  {
    /** The event id (`msg_…`). */
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    type: { type: String, required: true, immutable: true },
    timestamp: { type: Date, required: true, immutable: true },
    data: { type: Schema.Types.Mixed, required: true },
  },
  { collection: 'webhook_inbox', minimize: false, ...strict },
);
// The dispatcher reads the oldest first; the collection holds only events in flight.
webhookInboxSchema.index({ timestamp: 1, _id: 1 });

export const webhookDeliveryLogSchema = new Schema(
  {
    /** The webhook id. */
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    deliveries: { type: [Schema.Types.Mixed], required: true },
  },
  { collection: 'webhook_deliveries', ...strict },
);

export const webhookDueSchema = new Schema(
  {
    /** The webhook id. */
    _id: { type: String, required: true, immutable: true },
    organizationId: { type: String, required: true, immutable: true },
    at: { type: Date, required: true },
  },
  { collection: 'webhook_due', ...strict },
);
// The dispatcher's poll: webhooks whose next work is due, soonest first (a few documents: webhooks with work).
webhookDueSchema.index({ at: 1 });

type SubscriptionsDocument = InferSchemaType<typeof webhookSubscriptionsSchema>;
type InboxDocument = InferSchemaType<typeof webhookInboxSchema>;
type DeliveryLogDocument = InferSchemaType<typeof webhookDeliveryLogSchema>;
type DueDocument = InferSchemaType<typeof webhookDueSchema>;

function modelOf<T>(connection: Connection, name: string, schema: Schema): Model<T> {
  return (connection.models[name] ?? connection.model(name, schema)) as Model<T>;
}

export const webhookModels = (connection: Connection) => ({
  Subscriptions: modelOf<SubscriptionsDocument>(connection, 'WebhookSubscriptions', webhookSubscriptionsSchema),
  Inbox: modelOf<InboxDocument>(connection, 'WebhookInbox', webhookInboxSchema),
  Logs: modelOf<DeliveryLogDocument>(connection, 'WebhookDeliveryLog', webhookDeliveryLogSchema),
  Due: modelOf<DueDocument>(connection, 'WebhookDue', webhookDueSchema),
});
