/** If-Match parsing under strong comparison (RFC 9110 §8.8.3.2, §13.1.1). */
import { expect } from 'chai';
import { etagOf, revisionsFromIfMatch } from '../../../server/http/etag.js';

describe('etag', () => {
  it('makes strong tags from revisions', () => {
    expect(etagOf(7)).to.equal('"7"');
  });

  it('reads absent and * as "no revision constraint"', () => {
    expect(revisionsFromIfMatch(undefined)).to.equal(undefined);
    expect(revisionsFromIfMatch(' * ')).to.equal(undefined);
  });

  it('reads a list of strong tags and ignores weak or malformed members, so they never match', () => {
    expect(revisionsFromIfMatch('"3"')).to.deep.equal([3]);
    expect(revisionsFromIfMatch('"3", W/"4", "5" ,x')).to.deep.equal([3, 5]);
    expect(revisionsFromIfMatch('W/"3"')).to.deep.equal([]);
    expect(revisionsFromIfMatch('3')).to.deep.equal([]);
  });
});
