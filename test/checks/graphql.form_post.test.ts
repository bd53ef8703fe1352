import { expect } from 'chai';
import { scanGraphqlDemo, startGraphqlDemo, type GraphqlDemoTarget } from '../fixtures/targets/graphql-demo-target.js';
import { findingsOf } from './graphql-demo-result.js';

const ID = 'graphql.form_post';

describe(ID, function () {
  this.timeout(20_000);
  let target: GraphqlDemoTarget | undefined;
  afterEach(async () => target?.close());

  it('fails when a form-encoded mutation runs', async () => {
    target = await startGraphqlDemo();
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal(['POST /graphql | graphql.form_post']);
  });

  it('passes when form and text/plain bodies are refused', async () => {
    target = await startGraphqlDemo({ secure: true });
    expect(findingsOf(await scanGraphqlDemo(target, [ID]), ID)).to.deep.equal([]);
  });
});
