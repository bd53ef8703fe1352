/** The public representation of a registration: effective config, ISO dates, `actions`; no reviewer-only fields. */
import { effectiveConfig } from '../policy/effective-config.js';
import type { Registration, RegistrationConfig } from './registrations.model.js';
import { evaluateActions, type ActionContext, type BlockedAction, type SelfServiceAction } from './state-machine.js';
import { clientSecretView, type ClientSecretView } from './client-secret-view.js';

/** The registration as every caller sees it (a webhook's `data.registration`): without the caller's actions. */
type RegistrationResource = Omit<RegistrationView, 'actions' | 'blockedActions'>;

interface RegistrationView {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  clientType: Registration['clientType'];
  applicationType: Registration['applicationType'];
  policyProfileId: string;
  templateId?: string;
  config: RegistrationConfig;
  status: Registration['status'];
  clientId?: string;
  revision: number;
  createdAt: string;
  updatedAt: string;
  submittedAt?: string;
  createdBy: string;
  pendingChangeSetId?: string;
  clientSecretIssuedAt?: string;
  clientSecret?: ClientSecretView;
  actions: SelfServiceAction[];
  blockedActions: BlockedAction[];
}

export function registrationView(record: Registration, context: ActionContext): RegistrationView {
  const { actions, blockedActions } = evaluateActions(record, context);
  return { ...registrationResource(record, context.now), actions, blockedActions };
}

export function registrationResource(record: Registration, now: Date): RegistrationResource {
  return {
    id: record.id,
    organizationId: record.organizationId,
    name: record.name,
    description: record.description,
    clientType: record.clientType,
    applicationType: record.applicationType,
    policyProfileId: record.policyProfileId,
    ...(record.templateId !== undefined && { templateId: record.templateId }),
    config: effectiveConfig(record.config, record.clientType, record.applicationType),
    status: record.status,
    ...(record.clientId !== undefined && { clientId: record.clientId }),
    revision: record.revision,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    ...(record.submittedAt !== undefined && { submittedAt: record.submittedAt.toISOString() }),
    createdBy: record.createdBy,
    ...(record.pendingChangeSetId !== undefined && { pendingChangeSetId: record.pendingChangeSetId }),
    ...(record.secret
      ? {
          clientSecretIssuedAt: record.secret.issuedAt.toISOString(),
          clientSecret: clientSecretView(record.secret, now),
        }
      : record.clientSecretIssuedAt !== undefined && {
          clientSecretIssuedAt: record.clientSecretIssuedAt.toISOString(),
        }),
  };
}
