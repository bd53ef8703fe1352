import { expect } from 'chai';
import { scanGraphqlDemo, startGraphqlDemo, type GraphqlDemoTarget } from '../fixtures/targets/graphql-demo-target.js';
import { findingsOf } from './graphql-demo-result.js';

const ID = 'graphql.depth_limit';

describe(ID, function () {
  this.timeout(20_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('fails when the cycle orders.owner.orders… is answered 15 levels deep', async () => {
    target = await startGraphqlDemo();
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal(['POST /graphql | graphql.depth_limit']);
  });

  it('passes when a depth limit refuses 10 levels', async () => {
    target = await startGraphqlDemo({ secure: true });
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([]);
  });
});
