import { expect } from 'chai';
import { scanGraphqlDemo, startGraphqlDemo, type GraphqlDemoTarget } from '../fixtures/targets/graphql-demo-target.js';
import { findingsOf } from './graphql-demo-result.js';

const ID = 'graphql.field_suggestions';

describe(ID, function () {
  this.timeout(20_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('fails when a misspelled field is answered with "Did you mean"', async () => {
    target = await startGraphqlDemo();
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([
      'POST /graphql | graphql.field_suggestions',
    ]);
  });

  it('passes when errors suggest nothing', async () => {
    target = await startGraphqlDemo({ secure: true });
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([]);
  });
});
