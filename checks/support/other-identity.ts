/**
 * The second identity of object-level authorization checks: `ctx.options.asOther` (`{ name, value }`, from
 * `--as-other 'Authorization: Bearer …'`), sent instead of the operation's own credential.
 */
import type { CheckContext, ProbeRequest } from '../../scanner/api.js';

export interface OtherIdentity {
  name: string;
  value: string;
}

/** The second identity, or skips: without one there is nobody to compare the first identity with. */
export function otherIdentity(ctx: CheckContext): OtherIdentity {
  const option = ctx.options.asOther as Partial<OtherIdentity> | undefined;
  if (!option || typeof option.name !== 'string' || typeof option.value !== 'string' || option.value === '') {
    return ctx.skip("no second identity: give one with --as-other 'Authorization: Bearer <another user's token>'");
  }
  const own = ctx.operation.credential;
  if (
    own &&
    own.in === 'header' &&
    own.name.toLowerCase() === option.name.toLowerCase() &&
    option.value.endsWith(own.value)
  ) {
    return ctx.skip('--as-other carries the same credential as the scan');
  }
  return { name: option.name, value: option.value };
}

/** The probe fields that send a request as the other identity: the operation's credential removed, theirs added. */
export function asOther(identity: OtherIdentity): Pick<ProbeRequest, 'credential' | 'headers'> {
  return { credential: null, headers: { [identity.name]: identity.value } };
}
