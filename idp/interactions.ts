/**
 * The login and consent interactions (Express router at /interaction). With `--skip-prompt` both are approved
 * without a page: the user comes from `login_hint` (sub, email or preferred_username) or is the default user, and
 * a hint that matches nobody goes back to the client as an OAuth error redirect (never a 500 page).
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { InteractionResults, Provider } from 'oidc-provider';
import type { Logger } from '../lib/logger.js';
import type { AccountDirectory, IdpUser } from './accounts.js';
import { consentPage } from './views/consent-page.js';
import { errorPage } from './views/error-page.js';
import { loginPage } from './views/login-page.js';
import { splitScopes } from './user-scopes.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

interface PromptDetails {
  missingOIDCScope?: string[];
  missingOIDCClaims?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

export interface InteractionOptions {
  provider: Provider;
  accounts: AccountDirectory;
  skipPrompt: boolean;
  /** '' or the tenant's path: the pages' forms post below it. */
  mountPath?: string;
  /** The testing API's next login, if one is queued: that identity logs in without a page, consent included. */
  takeTestLogin?: () => string | undefined;
  logger: Logger;
}

/**
 * Grants what the consent prompt says is missing (scopes, claims, resource scopes), on top of any earlier grant —
 * except the scopes the user may not have (user-scopes.ts), which the grant rejects.
 */
async function grantMissing(
  provider: Provider,
  accounts: AccountDirectory,
  interaction: Interaction,
  accountId: string,
): Promise<string> {
  const details = interaction.prompt.details as PromptDetails;
  const user = accounts.lookup(accountId);
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
  if (details.missingOIDCScope) {
    const { granted, refused } = splitScopes(user, details.missingOIDCScope);
    if (granted.length) grant.addOIDCScope(granted.join(' '));
    if (refused.length) grant.rejectOIDCScope(refused.join(' '));
  }
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {})) {
    const { granted, refused } = splitScopes(user, scopes);
    if (granted.length) grant.addResourceScope(indicator, granted.join(' '));
    if (refused.length) grant.rejectResourceScope(indicator, refused.join(' '));
  }
  return grant.save();
}

/** The scopes the consent page lists: those asked for that the user may be granted. */
function requestedScopes(interaction: Interaction, user: IdpUser | undefined): string[] {
  const details = interaction.prompt.details as PromptDetails;
  const scopes = new Set(details.missingOIDCScope ?? []);
  for (const list of Object.values(details.missingResourceScopes ?? {})) list.forEach((s) => scopes.add(s));
  return splitScopes(user, [...scopes]).granted;
}

async function clientName(provider: Provider, clientId: unknown): Promise<string> {
  const client = await provider.Client.find(String(clientId));
  return client?.clientName ?? String(clientId);
}

export function interactionRouter({
  provider,
  accounts,
  skipPrompt,
  mountPath = '',
  takeTestLogin,
  logger,
}: InteractionOptions): Router {
  const router = express.Router();
  const base = `${mountPath}/interaction`;
  // The pages load nothing and run no script; forms post to this origin (form-action is left out on purpose:
  // browsers apply it to the redirect to the client that follows the post).
  router.use((_req, res, next) => {
    res.set({
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    next();
  });
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const finish = (req: Request, res: Response, result: InteractionResults, merge = true) =>
    provider.interactionFinished(req, res, result, { mergeWithLastSubmission: merge });

  async function showLogin(req: Request, res: Response, interaction: Interaction, error?: string) {
    res
      .type('html')
      .status(error ? 400 : 200)
      .send(
        loginPage({
          action: `${base}/${interaction.uid}/login`,
          users: accounts.users,
          clientName: await clientName(provider, interaction.params.client_id),
          loginHint: typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined,
          error,
        }),
      );
  }

  router.get('/:uid', async (req, res) => {
    const interaction = await provider.interactionDetails(req, res);
    const hint = typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined;
    if (interaction.prompt.name === 'login') {
      const testSub = takeTestLogin?.();
      if (testSub) return finish(req, res, { login: { accountId: testSub } }, false);
      if (!skipPrompt) return showLogin(req, res, interaction);
      const user = accounts.choose(hint);
      if (!user) {
        return finish(
          req,
          res,
          { error: 'invalid_request', error_description: `login_hint "${hint}" matches no configured user` },
          false,
        );
      }
      return finish(req, res, { login: { accountId: user.sub } }, false);
    }
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name === 'consent' && accountId) {
      if (skipPrompt || accounts.isOverridden(accountId)) {
        return finish(req, res, {
          consent: { grantId: await grantMissing(provider, accounts, interaction, accountId) },
        });
      }
      const user = accounts.lookup(accountId);
      return res.type('html').send(
        consentPage({
          action: `${base}/${interaction.uid}/confirm`,
          abortAction: `${base}/${interaction.uid}/abort`,
          clientName: await clientName(provider, interaction.params.client_id),
          userLabel: typeof user?.email === 'string' ? user.email : accountId,
          scopes: requestedScopes(interaction, user),
        }),
      );
    }
    return finish(
      req,
      res,
      { error: 'invalid_request', error_description: `unsupported interaction prompt ${interaction.prompt.name}` },
      false,
    );
  });

  router.post('/:uid/login', form, async (req, res) => {
    const interaction = await provider.interactionDetails(req, res);
    if (interaction.prompt.name !== 'login')
      return showLogin(req, res, interaction, 'This sign-in step is already complete.');
    const body = req.body as { login?: unknown } | undefined;
    const login = typeof body?.login === 'string' ? body.login.trim() : '';
    if (!login) return showLogin(req, res, interaction, 'Choose or type a user.');
    const user = accounts.choose(login);
    if (!user) return showLogin(req, res, interaction, `No configured user matches "${login}".`);
    return finish(req, res, { login: { accountId: user.sub } }, false);
  });

  router.post('/:uid/confirm', form, async (req, res) => {
    const interaction = await provider.interactionDetails(req, res);
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'consent' || !accountId) {
      return finish(
        req,
        res,
        { error: 'invalid_request', error_description: 'no consent is pending for this interaction' },
        false,
      );
    }
    return finish(req, res, { consent: { grantId: await grantMissing(provider, accounts, interaction, accountId) } });
  });

  router.post('/:uid/abort', form, async (req, res) => {
    await provider.interactionDetails(req, res);
    return finish(req, res, { error: 'access_denied', error_description: 'End-User aborted interaction' }, false);
  });

  // Expired or foreign interactions (oidc-provider errors carry an OAuth code and status) get our error page;
  // anything else is logged and answered without internals.
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const oauth = error as { error?: string; error_description?: string; statusCode?: number; status?: number };
    if (typeof oauth.error === 'string') {
      res
        .status(oauth.statusCode ?? 400)
        .type('html')
        .send(errorPage(oauth.error, oauth.error_description));
      return;
    }
    const status = oauth.status ?? oauth.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).type('html').send(errorPage('invalid_request', 'The request could not be read.'));
      return;
    }
    logger.error({ err: error }, 'interaction failed');
    res
      .status(500)
      .type('html')
      .send(errorPage('server_error', 'The identity provider could not complete the request.'));
  });

  return router;
}
