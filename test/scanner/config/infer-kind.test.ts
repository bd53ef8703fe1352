import { expect } from 'chai';
import { inferKind } from '../../../scanner/config/infer-kind.js';

describe('the kind of scan a config file’s target asks for', () => {
  it('is openapi for a description file or a URL of one', () => {
    expect(inferKind('api/openapi.yaml')).to.equal('openapi');
    expect(inferKind('https://api.example.com/v3/openapi.json?token=1')).to.equal('openapi');
    expect(inferKind('spec.YML')).to.equal('openapi');
  });

  it('is graphql for an endpoint whose path ends in /graphql or /gql', () => {
    expect(inferKind('https://api.example.com/graphql')).to.equal('graphql');
    expect(inferKind('http://127.0.0.1:4000/v1/gql/')).to.equal('graphql');
  });

  it('is curl for anything else, a host named graphql included', () => {
    expect(inferKind('https://api.example.com/users/1')).to.equal('curl');
    expect(inferKind('https://graphql.example.com/users')).to.equal('curl');
  });
});
