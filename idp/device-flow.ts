/**
 * The device authorization grant (RFC 8628, `--enable-device-flow`): oidc-provider's device flow, its verification
 * pages at /device going through the IdP's login and consent; and the headless approval the testing API offers — a
 * user code approved as a given user, with the scopes that user may have (user-scopes.ts), as if they had typed it.
 */
import type Provider from 'oidc-provider';
import type { AccountDirectory } from './accounts.js';
import { splitScopes } from './user-scopes.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export class DeviceApprovalError extends Error {}

/** The user code as oidc-provider stores it: upper case, letters and digits only. */
const normalize = (userCode: string) => userCode.toUpperCase().replace(/\W/g, '');

/**
 * Approves a pending user code as `sub`: the next poll of its device code gets tokens. `resource` is the resource
 * its access token is for when the device asked for none (the IdP's default audience).
 */
export async function approveDeviceCode(
  provider: Provider,
  accounts: AccountDirectory,
  request: { userCode: string; sub: string; defaultResource?: string },
): Promise<{ scope: string }> {
  const code = await provider.DeviceCode.findByUserCode(normalize(request.userCode), { ignoreExpiration: true });
  if (!code) throw new DeviceApprovalError(`no pending device authorization has user code ${request.userCode}`);
  if (code.isExpired) throw new DeviceApprovalError(`user code ${request.userCode} has expired`);
  if (code.accountId || code.error) throw new DeviceApprovalError(`user code ${request.userCode} was already used`);
  const user = accounts.lookup(request.sub);
  if (!user) throw new DeviceApprovalError(`no user has sub "${request.sub}"`);

  const params = code.params as { scope?: string; resource?: string | string[] };
  const asked = (params.scope ?? 'openid').split(' ').filter(Boolean);
  const { granted, refused } = splitScopes(user, asked);
  const resource = [params.resource ?? request.defaultResource].flat()[0];
  const grant = new provider.Grant({ accountId: user.sub, clientId: code.clientId });
  // As consent grants them (interactions.ts): every accepted scope is an OIDC scope, and the resource's too.
  if (granted.length) grant.addOIDCScope(granted.join(' '));
  if (refused.length) grant.rejectOIDCScope(refused.join(' '));
  if (resource && granted.length) grant.addResourceScope(resource, granted.join(' '));
  Object.assign(code, {
    accountId: user.sub,
    authTime: Math.floor(Date.now() / 1000),
    grantId: await grant.save(),
    scope: granted.join(' '),
    ...(resource ? { resource } : {}),
  });
  await code.save();
  return { scope: code.scope as string };
}
