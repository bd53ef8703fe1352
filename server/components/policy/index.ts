/** The policy component's public surface: what REG, capabilities and the seed loader use. */
export { validateRegistration, type RegistrationPolicyInput } from './validate-registration.js';
export { effectiveConfig, type EffectiveConfig } from './effective-config.js';
export { platformPolicy, clientTypeRules, type PlatformPolicy, type ClientTypeRule } from './platform-policy.js';
export { REGISTRATION_CONFIG_SCHEMA_ID } from './registration-config-schema.js';
