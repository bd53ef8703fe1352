/**
 * The platform's templates (fixed ids, docs/architecture.md §1.3). Data, validated against `schemas/template.schema.json`
 * by the tests, which also check that each one passes the policy once redirect URIs are added.
 */
import { deepFreeze } from '../../../lib/deep-freeze.js';
import type { Template } from './templates.model.js';

export const TEMPLATES: readonly Readonly<Template>[] = deepFreeze<Template[]>([
  {
    id: 'tpl_spa',
    name: 'Single-page application',
    description: 'A browser application: public client, authorization code with PKCE, refresh tokens.',
    clientType: 'public',
    applicationType: 'spa',
    policyProfileId: 'pp_standard',
    defaults: {
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    },
  },
  {
    id: 'tpl_web',
    name: 'Web application',
    description: 'A server-side web application: confidential client, authorization code with PKCE, refresh tokens.',
    clientType: 'confidential',
    applicationType: 'web',
    policyProfileId: 'pp_standard',
    defaults: {
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      requirePkce: true,
    },
  },
  {
    id: 'tpl_native',
    name: 'Native application',
    description:
      'A mobile or desktop application: public client, loopback or private-use redirect URIs (RFC 8252), PKCE.',
    clientType: 'public',
    applicationType: 'native',
    policyProfileId: 'pp_standard',
    defaults: {
      grantTypes: ['authorization_code', 'refresh_token'],
      responseTypes: ['code'],
      tokenEndpointAuthMethod: 'none',
      requirePkce: true,
    },
  },
  {
    id: 'tpl_m2m',
    name: 'Machine to machine',
    description:
      'A back-end service calling APIs on its own behalf: confidential client, client credentials grant, no redirects.',
    clientType: 'confidential',
    applicationType: 'service',
    policyProfileId: 'pp_service',
    defaults: { grantTypes: ['client_credentials'], responseTypes: [], tokenEndpointAuthMethod: 'client_secret_basic' },
  },
]);

export function findTemplate(id: unknown): Readonly<Template> | undefined {
  return TEMPLATES.find((t) => t.id === id);
}
