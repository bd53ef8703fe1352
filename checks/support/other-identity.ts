/**
 * The second identity of object-level authorization checks: the model's `other` (`--as-other 'Authorization: Bearer
 * …'`, or `--identity other=…`), sent with `ProbeRequest.as: 'other'` instead of the operation's own credential.
 */
import type { CheckContext, ModelIdentity, ProbeRequest } from '../../scanner/api.js';

/** The second identity, or skips: without one there is nobody to compare the first identity with. */
export function otherIdentity(ctx: CheckContext): ModelIdentity {
  const other = ctx.model.identity('other');
  if (!other)
    return ctx.skip(
      "no second identity: give one with --as-other 'Authorization: Bearer <another user's token>' (or --identity other=…)",
    );
  const option = ctx.options.asOther as { name?: string; value?: string } | undefined;
  const own = ctx.operation.credential;
  if (
    own &&
    option?.value !== undefined &&
    own.in === 'header' &&
    own.name.toLowerCase() === option.name?.toLowerCase() &&
    option.value.endsWith(own.value)
  ) {
    return ctx.skip('--as-other carries the same credential as the scan');
  }
  return other;
}

/** The probe fields that send a request as the other identity. */
export function asOther(): Pick<ProbeRequest, 'as'> {
  return { as: 'other' };
}
