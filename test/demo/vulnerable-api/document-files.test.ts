import { expect } from 'chai';
import { readDocument } from '../../../demo/vulnerable-api/document-files.js';

describe('the demo’s in-memory documents (demo/vulnerable-api/document-files.ts)', () => {
  it('lets ../ and absolute paths out of the documents folder on the vulnerable twin, naming the resolved path', () => {
    expect(readDocument('../../../../etc/passwd', false))
      .to.have.property('content')
      .that.match(/^root:x:0:0:/);
    expect(readDocument('/etc/passwd', false)).to.have.property('content');
    expect(readDocument('../../../etc/nothing', false)).to.deep.equal({
      status: 404,
      error: "ENOENT: no such file or directory, open '/etc/nothing'",
    });
  });

  it('keeps the secure twin inside the folder and its errors free of paths', () => {
    expect(readDocument('welcome.txt', true)).to.have.property('content');
    expect(readDocument('../../../../etc/passwd', true)).to.deep.equal({
      status: 400,
      error: 'file: a document of the shop',
    });
    expect(readDocument('missing.txt', true)).to.deep.equal({ status: 404, error: 'no such document' });
  });
});
