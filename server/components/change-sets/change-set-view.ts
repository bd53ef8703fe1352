/** The public representation of a change set: ISO dates and `actions`; no reviewer identity. */
import type { ChangeSet } from './change-sets.model.js';
import {
  evaluateChangeSetActions,
  type ChangeSetActionContext,
  type ChangeSetSelfServiceAction,
} from './change-set-state-machine.js';
import type { BlockedAction } from '../registrations/state-machine.js';

interface ChangeSetView {
  id: string;
  registrationId: string;
  organizationId: string;
  status: ChangeSet['status'];
  baseRevision: number;
  changes: ChangeSet['changes'];
  revision: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  decidedAt?: string;
  actions: ChangeSetSelfServiceAction[];
  blockedActions: BlockedAction<ChangeSetSelfServiceAction>[];
}

export function changeSetView(record: ChangeSet, context: ChangeSetActionContext): ChangeSetView {
  const { actions, blockedActions } = evaluateChangeSetActions(record, context);
  return { ...changeSetResource(record), actions, blockedActions };
}

/** The change set as every caller sees it (a webhook's `data.changeSet`): without the caller's actions. */
export function changeSetResource(record: ChangeSet): Omit<ChangeSetView, 'actions' | 'blockedActions'> {
  return {
    id: record.id,
    registrationId: record.registrationId,
    organizationId: record.organizationId,
    status: record.status,
    baseRevision: record.baseRevision,
    changes: record.changes,
    revision: record.revision,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    createdBy: record.createdBy,
    ...(record.decidedAt !== undefined && { decidedAt: record.decidedAt.toISOString() }),
  };
}
