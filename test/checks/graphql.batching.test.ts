import { expect } from 'chai';
import { scanGraphqlDemo, startGraphqlDemo, type GraphqlDemoTarget } from '../fixtures/targets/graphql-demo-target.js';
import { findingsOf } from './graphql-demo-result.js';

const ID = 'graphql.batching';

describe(ID, function () {
  this.timeout(20_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('fails when a JSON array of 100 operations is answered', async () => {
    target = await startGraphqlDemo();
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal(['POST /graphql | graphql.batching']);
  });

  it('passes when batches are refused (graphql-http answers an array 400)', async () => {
    target = await startGraphqlDemo({ secure: true });
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([]);
  });
});
