/** What the internal surface shows of stored records: everything a reviewer needs, never a secret or its hash. */
import type { Registration } from '../components/registrations/registrations.model.js';

export function internalRegistrationView(registration: Registration, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const view: Record<string, unknown> = { ...registration, ...extra };
  for (const key of Object.keys(view)) if (/secret|token/i.test(key)) delete view[key];
  return view;
}
