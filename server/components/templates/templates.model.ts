/** A template: a starting point for a new registration (docs/architecture.md §1.3). Read-only, platform-defined. */
import type { ApplicationType, ClientType, RegistrationConfig } from '../registrations/registrations.model.js';

export interface Template {
  id: string;
  name: string;
  description: string;
  clientType: ClientType;
  applicationType: ApplicationType;
  policyProfileId: string;
  /** Config values a registration created from the template starts with; redirect URIs are the caller's. */
  defaults: RegistrationConfig;
}
