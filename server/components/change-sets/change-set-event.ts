/** The webhook events of change sets: `data.changeSet` as the API shows it (without the caller's actions). */
import type { WebhookEvent, WebhookEventType } from '../webhooks/webhooks.model.js';
import { changeSetResource } from './change-set-view.js';
import type { ChangeSet, ChangeSetStatus } from './change-sets.model.js';

export function changeSetEvent(
  type: WebhookEventType,
  changeSet: ChangeSet,
  actor: string,
  now: Date,
): Omit<WebhookEvent, 'id'> {
  return {
    type,
    organizationId: changeSet.organizationId,
    timestamp: now,
    data: { organizationId: changeSet.organizationId, changeSet: changeSetResource(changeSet), actor },
  };
}

/** The change set once a decision moved it to `status` (the event is made before that write). */
export function decided(changeSet: ChangeSet, status: ChangeSetStatus, now: Date, decidedBy?: string): ChangeSet {
  return {
    ...changeSet,
    status,
    decidedAt: now,
    ...(decidedBy !== undefined && { decidedBy }),
    revision: changeSet.revision + 1,
    updatedAt: now,
  };
}
