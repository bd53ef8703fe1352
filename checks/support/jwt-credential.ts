/** Gives a JWT check the operation's token, parsed without verification, or skips the check with the reason. */
import { parseUnverified, type CheckContext, type Operation, type UnverifiedJwt } from '../../scanner/api.js';

/** `appliesTo` of every `jwt.*` check: the operation carries a credential that looks like a JWT. */
export function carriesJwt(operation: Operation): true | string {
  if (!operation.credential) return 'operation has no credential';
  if (operation.credential.format !== 'jwt') return `credential ${operation.credential.schemeName} is not a JWT`;
  return true;
}

export function operationJwt(ctx: CheckContext): UnverifiedJwt {
  const value = ctx.operation.credential?.value ?? '';
  const parsed = parseUnverified(value);
  if (!parsed.ok) ctx.skip(`credential is not a parsable JWT: ${parsed.reason}`);
  return parsed.jwt;
}
