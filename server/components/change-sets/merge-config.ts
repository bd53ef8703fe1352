/** Applies a change set's top-level config keys over a registration's config (each key replaced as a whole). */
import type { RegistrationConfig } from '../registrations/registrations.model.js';

export function mergeConfig(config: RegistrationConfig, changes: Partial<RegistrationConfig>): RegistrationConfig {
  const merged: RegistrationConfig = { ...config };
  for (const [key, value] of Object.entries(changes)) if (value !== undefined) merged[key] = value;
  // RFC 7591: jwks_uri and jwks are mutually exclusive; setting one in a change replaces the other.
  if ('jwks' in changes && changes.jwks !== undefined) delete merged.jwksUri;
  if ('jwksUri' in changes && changes.jwksUri !== undefined) delete merged.jwks;
  return merged;
}
