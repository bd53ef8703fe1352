import { expect } from 'chai';
import { describeChain, errorChain } from '../../lib/error-chain.js';

describe('errorChain', () => {
  it('lists an error and its causes with the fields that say where a connection failed', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '127.0.0.1',
      port: 9,
      secret: 'never copied',
    });
    const chain = errorChain(new TypeError('fetch failed', { cause: refused }));
    expect(chain).to.deep.equal([
      { name: 'TypeError', message: 'fetch failed' },
      {
        name: 'Error',
        message: 'connect ECONNREFUSED 127.0.0.1:9',
        code: 'ECONNREFUSED',
        syscall: 'connect',
        address: '127.0.0.1',
        port: 9,
      },
    ]);
    expect(describeChain(new TypeError('fetch failed', { cause: refused }))).to.equal(
      'fetch failed: connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it("follows an AggregateError's first error, stops at a cycle, and takes a thrown non-error as it is", () => {
    const inner = new Error('connect ECONNREFUSED ::1:27017');
    expect(errorChain(new AggregateError([inner], 'all addresses failed')).map((l) => l.message)).to.deep.equal([
      'all addresses failed',
      'connect ECONNREFUSED ::1:27017',
    ]);
    const looping = new Error('a');
    (looping as { cause?: unknown }).cause = looping;
    expect(errorChain(looping)).to.have.length(1);
    expect(errorChain('text')).to.deep.equal([{ name: 'string', message: 'text' }]);
    expect(describeChain(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' }))).to.equal(
      'timed out (ETIMEDOUT)',
    );
  });
});
