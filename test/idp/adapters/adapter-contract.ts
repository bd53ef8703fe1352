/** The behaviour every IdP store's adapter must have, for every model oidc-provider instantiates. */
import { expect } from 'chai';
import type { IdpStore } from '../../../idp/adapters/store.js';
import { oidcModels } from '../support/oidc-models.js';

export function adapterContract(getStore: () => IdpStore): void {
  for (const model of oidcModels()) {
    describe(`${model} model`, () => {
      it('stores, finds, consumes and destroys a payload unchanged (claim names with dots included)', async () => {
        const adapter = getStore().adapter(model);
        const payload = {
          kind: model,
          jti: `${model}-1`,
          grantId: `g-${model}`,
          scope: 'openid',
          resources: { 'https://api.example.com/v1': 'a b' },
        };
        await adapter.upsert(`${model}-1`, payload, 60);
        expect(await adapter.find(`${model}-1`)).to.deep.equal(payload);
        await adapter.consume(`${model}-1`);
        expect((await adapter.find(`${model}-1`))!.consumed).to.be.a('number');
        await adapter.destroy(`${model}-1`);
        expect(await adapter.find(`${model}-1`)).to.equal(undefined);
      });

      it('finds by uid and user code, and revokes everything of a grant', async () => {
        const adapter = getStore().adapter(model);
        await adapter.upsert(
          `${model}-u`,
          { uid: `uid-${model}`, userCode: `UC-${model}`, grantId: `grant-${model}` },
          60,
        );
        await adapter.upsert(`${model}-v`, { grantId: `grant-${model}` }, 60);
        await adapter.upsert(`${model}-w`, { grantId: 'another-grant' }, 60);
        expect((await adapter.findByUid(`uid-${model}`))!.userCode).to.equal(`UC-${model}`);
        expect((await adapter.findByUserCode(`UC-${model}`))!.uid).to.equal(`uid-${model}`);
        await adapter.revokeByGrantId(`grant-${model}`);
        expect(await adapter.find(`${model}-u`)).to.equal(undefined);
        expect(await adapter.find(`${model}-v`)).to.equal(undefined);
        expect(await adapter.find(`${model}-w`)).to.deep.equal({ grantId: 'another-grant' });
      });
    });
  }

  it('never returns an expired payload', async () => {
    const adapter = getStore().adapter('AccessToken');
    await adapter.upsert('short', { jti: 'short' }, 1);
    await adapter.upsert('forever', { jti: 'forever' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await adapter.find('short')).to.equal(undefined);
    expect(await adapter.find('forever')).to.deep.equal({ jti: 'forever' });
  });

  it('keeps the first value of a state record (the winner of a race)', async () => {
    const store = getStore();
    const [a, b] = await Promise.all([store.initState('race', { n: 1 }), store.initState('race', { n: 2 })]);
    expect(a).to.deep.equal(b);
    expect(await store.initState('race', { n: 3 })).to.deep.equal(a);
  });
}
