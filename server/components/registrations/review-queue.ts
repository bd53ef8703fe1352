/**
 * The review queue: pending registrations and pending change sets, oldest first, across organizations or in one.
 * A registration with a pending change set appears as the change set (its own status is `active`).
 */
import type { ApiDeps } from '../../deps.js';
import type { ChangeSet } from '../change-sets/change-sets.model.js';
import type { Registration } from './registrations.model.js';

type InternalServiceDeps = Pick<ApiDeps, 'store'>;

export type QueueItem =
  | { kind: 'registration'; organizationId: string; waitingSince: Date; registration: Registration }
  | {
      kind: 'change_set';
      organizationId: string;
      waitingSince: Date;
      registration: Registration;
      changeSet: ChangeSet;
    };

export const MAX_QUEUE_LIMIT = 200;

export async function reviewQueue(
  deps: InternalServiceDeps,
  query: { organizationId?: string; limit?: number } = {},
): Promise<QueueItem[]> {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), MAX_QUEUE_LIMIT);
  const registrations = await deps.store.registrations.listAwaitingReview({
    organizationId: query.organizationId,
    limit,
  });
  const items: QueueItem[] = [];
  for (const registration of registrations) {
    if (registration.status === 'pending_review') {
      items.push({
        kind: 'registration',
        organizationId: registration.organizationId,
        waitingSince: registration.submittedAt ?? registration.updatedAt,
        registration,
      });
    }
    if (registration.pendingChangeSetId !== undefined) {
      const changeSet = await deps.store.changeSets.get(
        registration.organizationId,
        registration.id,
        registration.pendingChangeSetId,
      );
      if (changeSet && changeSet.status === 'pending_review') {
        items.push({
          kind: 'change_set',
          organizationId: registration.organizationId,
          waitingSince: changeSet.createdAt,
          registration,
          changeSet,
        });
      }
    }
  }
  return items.sort((a, b) => a.waitingSince.getTime() - b.waitingSince.getTime());
}
