/**
 * The registrations the scale benches fill a large organization with (bench/service-scale.ts,
 * bench/ferretdb-growth.ts): drafts a day old, one millisecond apart, in the order they are stored.
 */
import type { Registration } from '../server/components/registrations/registrations.model.js';
import { newId } from '../server/ids.js';

export function bulkRegistration(organizationId: string, i: number): Registration {
  const at = new Date(Date.now() - 86_400_000 + i);
  return {
    id: newId('reg'),
    organizationId,
    name: `Bulk app ${i}`,
    description: '',
    clientType: 'confidential',
    applicationType: 'web',
    policyProfileId: 'pp_standard',
    templateId: 'tpl_web',
    config: { redirectUris: ['https://app.example.com/cb'], grantTypes: ['authorization_code'] },
    status: 'draft',
    revision: 1,
    createdAt: at,
    updatedAt: at,
    createdBy: 'alice',
  };
}

/** The record as a document inserted directly (as a database an older build filled, before db:migrate). */
export function asDocument({ id, ...rest }: Registration): { _id: string } & Record<string, unknown> {
  return { _id: id, ...rest };
}
