/**
 * The audience on both surfaces (issue 26): with tokens from our IdP, JWT and opaque, a token is accepted only on
 * the listener its `aud` names; a token without `aud` is refused on both — on the public API an introspected one
 * passes with API_AUTH_ALLOW_MISSING_AUDIENCE=true, a JWT never, and on the internal surface nothing without its
 * audience ever does.
 */
import { expect } from 'chai';
import { createIdp, type RunningIdp } from '../../../idp/create-idp.js';
import { INTERNAL_AUDIENCE, PUBLIC_AUDIENCE, startSurfaces, type Surfaces } from './surfaces.js';

const SCOPES = 'registrations:read gatehouse:review';

for (const format of ['jwt', 'opaque'] as const) {
  describe(`the audience of ${format} access tokens`, function () {
    this.timeout(30_000);
    let idp: RunningIdp;
    const surfaces: Record<'strict' | 'lenient', Surfaces> = {} as never;

    before(async () => {
      idp = await createIdp({ port: 0, enableTestingApi: true, accessTokenFormat: format, skipPrompt: true });
      const env = {
        API_AUTH_ISSUER: idp.issuer,
        API_AUTH_TOKEN_TYPES: 'jwt,opaque',
        API_AUTH_CLIENT_ID: idp.client.clientId,
        API_AUTH_CLIENT_SECRET: idp.client.clientSecret as string,
      };
      surfaces.strict = await startSurfaces(env);
      surfaces.lenient = await startSurfaces({ ...env, API_AUTH_ALLOW_MISSING_AUDIENCE: 'true' });
    });
    after(async () => {
      await surfaces.strict?.close();
      await surfaces.lenient?.close();
      await idp?.close();
    });

    /** A token of this format for `aud` (absent: a token naming no audience at all). */
    async function token(aud?: string): Promise<string> {
      const minted = await idp.testing!.mintToken({
        sub: 'alice',
        scope: SCOPES,
        ...(aud ? { aud } : format === 'jwt' ? { claims: { aud: undefined } } : {}),
      });
      return minted.token;
    }
    const onPublic = async (s: Surfaces, t: string) =>
      s.public.get('/api/v1/organizations').set('Authorization', `Bearer ${t}`);
    const onInternal = async (s: Surfaces, t: string) =>
      s.internal.get('/internal/v1/review-queue').set('Authorization', `Bearer ${t}`);
    const refusedFor = (res: { status: number; headers: Record<string, string> }, rule: string) => {
      expect(res.status).to.equal(401);
      expect(res.headers['www-authenticate']).to.include(`error_description="${rule}:`);
    };

    it('accepts a token on the surface its audience names, and only there', async () => {
      const publicToken = await token(PUBLIC_AUDIENCE);
      const internalToken = await token(INTERNAL_AUDIENCE);
      expect((await onPublic(surfaces.strict, publicToken)).status).to.equal(200);
      expect((await onInternal(surfaces.strict, internalToken)).status).to.equal(200);
      refusedFor(await onInternal(surfaces.strict, publicToken), 'audience');
      refusedFor(await onPublic(surfaces.strict, internalToken), 'audience');
    });

    it('refuses a token without aud on both surfaces', async () => {
      const bare = await token();
      refusedFor(await onPublic(surfaces.strict, bare), 'audience');
      refusedFor(await onInternal(surfaces.strict, bare), 'audience');
    });

    it(`with API_AUTH_ALLOW_MISSING_AUDIENCE=true ${format === 'opaque' ? 'admits it on the public API only' : 'still refuses it: JWTs always need their audience'}`, async () => {
      const bare = await token();
      const res = await onPublic(surfaces.lenient, bare);
      if (format === 'opaque') expect(res.status).to.equal(200);
      else refusedFor(res, 'audience');
      refusedFor(await onInternal(surfaces.lenient, bare), 'audience');
    });
  });
}
