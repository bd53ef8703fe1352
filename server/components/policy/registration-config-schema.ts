/** The `$id` of the structural JSON Schema for `config` (schemas/registration-config.schema.json). */
export const REGISTRATION_CONFIG_SCHEMA_ID = 'https://gatehouse.dev/schemas/registration-config.schema.json';
