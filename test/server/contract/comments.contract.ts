/** The comment repository contract: a registration's comments oldest first, tenant isolation, unique ids. */
import { expect } from 'chai';
import type { Store } from '../../../server/deps.js';
import type { CommentRepository } from '../../../server/components/comments/comments.repository.js';

export function commentContract(name: string, makeStore: () => Promise<Store>): void {
  const make = async () => {
    const store = await makeStore();
    return { comments: store.comments, close: () => store.close() };
  };
  describe(`comment repository: ${name}`, () => {
    let repo: CommentRepository;
    let close: () => Promise<void>;
    beforeEach(async () => {
      ({ comments: repo, close } = await make());
    });
    afterEach(() => close());

    const comment = (
      id: string,
      s: number,
      registrationId = 'reg_AAAAAAAAAAAAAAAAAAAAAA',
      organizationId = 'org_AAAAAAAAAAAAAAAAAAAAAA',
    ) => ({
      id,
      organizationId,
      registrationId,
      author: 'rita',
      body: `comment ${id}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, s)),
    });

    it("lists a registration's comments oldest first, never another registration's or organization's", async () => {
      await repo.add(comment('cmt_BBBBBBBBBBBBBBBBBBBBBB', 2));
      await repo.add(comment('cmt_AAAAAAAAAAAAAAAAAAAAAA', 1));
      await repo.add(comment('cmt_CCCCCCCCCCCCCCCCCCCCCC', 3, 'reg_BBBBBBBBBBBBBBBBBBBBBB'));
      await repo.add(
        comment('cmt_DDDDDDDDDDDDDDDDDDDDDD', 4, 'reg_AAAAAAAAAAAAAAAAAAAAAA', 'org_BBBBBBBBBBBBBBBBBBBBBB'),
      );
      const list = await repo.list({
        organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA',
        registrationId: 'reg_AAAAAAAAAAAAAAAAAAAAAA',
        limit: 10,
      });
      expect(list.map((c) => c.id)).to.deep.equal(['cmt_AAAAAAAAAAAAAAAAAAAAAA', 'cmt_BBBBBBBBBBBBBBBBBBBBBB']);
      expect(list[0]).to.deep.equal(comment('cmt_AAAAAAAAAAAAAAAAAAAAAA', 1));
      const after = await repo.list({
        organizationId: 'org_AAAAAAAAAAAAAAAAAAAAAA',
        registrationId: 'reg_AAAAAAAAAAAAAAAAAAAAAA',
        limit: 10,
        after: list[0],
      });
      expect(after.map((c) => c.id)).to.deep.equal(['cmt_BBBBBBBBBBBBBBBBBBBBBB']);
    });

    it('refuses a second comment with the same id', async () => {
      await repo.add(comment('cmt_AAAAAAAAAAAAAAAAAAAAAA', 1));
      let failed = false;
      await repo.add(comment('cmt_AAAAAAAAAAAAAAAAAAAAAA', 2)).catch(() => (failed = true));
      expect(failed).to.equal(true);
    });
  });
}
