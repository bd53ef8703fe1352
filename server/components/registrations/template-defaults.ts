/** A template named at creation supplies client type, application type, policy profile and config defaults. */
import { apiError } from '../../errors.js';
import { findTemplate } from '../templates/templates.data.js';
import type { ApplicationType, ClientType, RegistrationConfig } from './registrations.model.js';

interface TemplateDefaults {
  clientType: ClientType;
  applicationType: ApplicationType;
  policyProfileId: string;
  defaults: RegistrationConfig;
}

export function resolveTemplate(templateId: string): TemplateDefaults {
  const template = findTemplate(templateId);
  if (!template) {
    throw apiError('validation_failed', 'The request body is invalid.', {
      fields: [{ path: 'templateId', message: 'is not a known template' }],
    });
  }
  return template;
}
