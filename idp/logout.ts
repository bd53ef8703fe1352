/**
 * RP-Initiated Logout pages and the `--skip-prompt` logout of the seed: no confirmation page; back-channel
 * logout tokens (OpenID Connect Back-Channel Logout 1.0 §2.5) go to every client of the session FIRST, then
 * the grants are revoked, the session destroyed, and the browser sent to the validated post_logout_redirect_uri
 * with `state`. oidc-provider only notifies from its own confirm form, which skip-prompt never shows.
 */
import type { Configuration, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { logoutConfirmPage, signedOutPage } from './views/logout-pages.js';

export const SESSION_COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax', signed: true } as const;

interface LogoutState {
  clientId?: string;
  state?: string;
  postLogoutRedirectUri?: string;
}

async function findClient(provider: Provider, clientId: string) {
  try {
    return await provider.Client.find(clientId);
  } catch {
    return undefined;
  }
}

/** Sends the logout token to every client of the session that registered a backchannel_logout_uri. */
async function notifyBackchannel(ctx: KoaContextWithOIDC): Promise<void> {
  const { session, provider } = ctx.oidc;
  if (!session?.accountId) return;
  const accountId = session.accountId;
  await Promise.all(
    Object.keys(session.authorizations ?? {}).map(async (clientId) => {
      const client = await findClient(provider, clientId);
      if (!client?.backchannelLogoutUri) return;
      const sid = session.sidFor(clientId);
      // Client#backchannelLogout(sub, sid) exists in oidc-provider 9 but is missing from its type definitions.
      const withBackchannel = client as unknown as { backchannelLogout(sub: string, sid?: string): Promise<void> };
      try {
        await withBackchannel.backchannelLogout(accountId, sid);
        provider.emit('backchannel.success', ctx, client, accountId, sid);
      } catch (error) {
        // A receiver that is down must not block the logout; provider.ts logs the event (never the token).
        provider.emit('backchannel.error', ctx, error, client, accountId, sid);
      }
    }),
  );
}

async function revokeGrants(ctx: KoaContextWithOIDC): Promise<void> {
  const { session, provider } = ctx.oidc;
  await Promise.all(
    Object.entries(session?.authorizations ?? {}).map(async ([clientId, { grantId }]) => {
      if (!grantId || session!.authorizationFor(clientId)?.persistsLogout) return;
      await Promise.all([
        provider.AccessToken.revokeByGrantId(grantId),
        provider.RefreshToken.revokeByGrantId(grantId),
        provider.AuthorizationCode.revokeByGrantId(grantId),
      ]);
      await (await provider.Grant.find(grantId))?.destroy();
    }),
  );
}

function redirectAfterLogout(ctx: KoaContextWithOIDC, state: LogoutState): void {
  let target: string;
  if (state.postLogoutRedirectUri) {
    const url = new URL(state.postLogoutRedirectUri);
    if (state.state != null) url.searchParams.set('state', state.state);
    target = url.href;
  } else {
    target = ctx.oidc.urlFor('end_session_success');
  }
  ctx.status = 303;
  ctx.redirect(target);
}

/** Ends the session now: back-channel first, then revoke, destroy, clear the cookie, redirect. */
async function endSessionWithoutPrompt(ctx: KoaContextWithOIDC): Promise<void> {
  const { session, provider } = ctx.oidc;
  const state = { ...((session?.state ?? {}) as LogoutState) };
  await notifyBackchannel(ctx);
  await revokeGrants(ctx);
  await session?.destroy();
  ctx.cookies.set(provider.cookieName('session'), null, SESSION_COOKIE_OPTIONS);
  provider.emit('end_session.success', ctx);
  redirectAfterLogout(ctx, state);
}

export function rpInitiatedLogout(skipPrompt: boolean): NonNullable<Configuration['features']>['rpInitiatedLogout'] {
  return {
    enabled: true,
    async logoutSource(ctx, form) {
      if (skipPrompt) {
        await endSessionWithoutPrompt(ctx);
        return;
      }
      ctx.body = logoutConfirmPage(form, ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId);
    },
    async postLogoutSuccessSource(ctx) {
      ctx.body = signedOutPage(ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId);
    },
  };
}

/**
 * Koa middleware for `--skip-prompt`: a logout request without a signed-in session gets oidc-provider's
 * self-submitting form (it needs JavaScript); answer it with the redirect instead.
 */
export function skipPromptLogoutWithoutSession() {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    if (ctx.oidc?.route !== 'end_session' || ctx.status !== 200 || ctx.oidc.session?.accountId) return;
    await endSessionWithoutPrompt(ctx);
  };
}
