import { expect } from 'chai';
import { scanGraphqlDemo, startGraphqlDemo, type GraphqlDemoTarget } from '../fixtures/targets/graphql-demo-target.js';
import { findingsOf } from './graphql-demo-result.js';

const ID = 'graphql.circular_fragments';

describe(ID, function () {
  this.timeout(20_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('fails when two fragments spreading each other are executed', async () => {
    target = await startGraphqlDemo();
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([
      'POST /graphql | graphql.circular_fragments',
    ]);
  });

  it('passes when validation refuses the fragment cycle', async () => {
    target = await startGraphqlDemo({ secure: true });
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([]);
  });
});
