/**
 * The notices of a client secret's lifetime (scheduled by provisioning/secret-lifetime.ts secretNoticesFor): when
 * one comes due it becomes a webhook event if the registration still holds that secret (a rotation since makes it
 * stale). The event's id is derived from the notice, so a notice handled twice (two instances, a crash before the
 * cursor moved) is one event.
 */
import type { Store } from '../../deps.js';
import { acceptEvent, derivedId } from '../outbox/webhook-inbox.js';
import { registrationEvent } from '../registrations/registration-event.js';

/** Buckets one dispatcher run handles at most (a day: after a longer outage the next runs catch up). */
const BUCKETS_PER_RUN = 144;
const SECRETS_ACTOR = 'system:secrets';

/** Turns the notices that came due into events; resolves with how many were emitted. */
export async function emitDueSecretNotices(
  store: Pick<Store, 'secretNotices' | 'registrations' | 'webhooks' | 'webhookDeliveries'>,
  now: Date,
): Promise<number> {
  const due = await store.secretNotices.due(now, BUCKETS_PER_RUN);
  if (!due) return 0;
  let emitted = 0;
  for (const notice of due.notices) {
    const registration = await store.registrations.get(notice.organizationId, notice.registrationId);
    if (registration?.secret?.expiresAt?.getTime() !== notice.expiresAt.getTime()) continue;
    await acceptEvent(store, {
      id: derivedId('msg', notice.registrationId, notice.type, notice.at.toISOString()),
      ...registrationEvent(notice.type, registration, SECRETS_ACTOR, now),
      // The notice's own moment, not the run that found it due.
      timestamp: notice.at,
    });
    emitted += 1;
  }
  await store.secretNotices.taken(due.next);
  return emitted;
}
