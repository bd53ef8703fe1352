import { expect } from 'chai';
import type { ProbeResponse } from '../../../scanner/api.js';
import { describeApi } from '../../../scanner/model/describe-api.js';
import { createIdentity, type ScanIdentity } from '../../../scanner/model/identities.js';
import { learnIdentities } from '../../../scanner/model/learn-identities.js';
import { createOwnership, type Ownership } from '../../../scanner/model/ownership.js';
import type { OpenApiDocument } from '../../../scanner/openapi/load-document.js';
import { operationsOf, usersAndBooks } from './fixtures/descriptions.js';

const BASE = 'http://127.0.0.1:9';
const answer = (status: number, body: unknown): ProbeResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  setCookies: [],
  body: JSON.stringify(body),
  durationMs: 1,
});
const get = (schema?: unknown) => ({
  get: {
    responses: { 200: { description: 'ok', ...(schema ? { content: { 'application/json': { schema } } } : {}) } },
  },
});
const list = { type: 'array', items: { type: 'object' } };

/** A shop: the caller's record at /me, users' orders under their id, a catalogue of products, order lines. */
function shop(): OpenApiDocument {
  const id = { name: 'id', in: 'path', required: true, schema: { type: 'string', example: 'example-id' } };
  return {
    openapi: '3.1.0',
    info: { title: 'shop', version: '1' },
    servers: [{ url: BASE }],
    paths: {
      '/me': get(),
      '/users/{userId}/orders': { parameters: [{ ...id, name: 'userId' }], ...get(list) },
      '/orders': get(list),
      '/orders/{orderId}': {
        parameters: [{ ...id, name: 'orderId' }],
        ...get(),
        patch: { responses: { 200: { description: 'ok' } } },
      },
      '/orders/{orderId}/lines': { parameters: [{ ...id, name: 'orderId' }], ...get(list) },
      '/orders/{orderId}/lines/{lineId}': {
        parameters: [
          { ...id, name: 'orderId' },
          { ...id, name: 'lineId' },
        ],
        patch: { responses: { 200: { description: 'ok' } } },
      },
      '/products': get(list),
      '/products/{productId}': {
        parameters: [{ ...id, name: 'productId' }],
        put: { responses: { 200: { description: 'ok' } } },
      },
      '/reports': get(list),
      '/reports/{kind}': {
        parameters: [
          { name: 'kind', in: 'path', required: true, schema: { type: 'string', enum: ['daily', 'weekly'] } },
        ],
        get: { responses: { 200: { description: 'ok' } } },
      },
    },
  };
}

interface Learned {
  sent: string[];
  ownership: Ownership;
  identities: ScanIdentity[];
}

async function learn(
  document: OpenApiDocument,
  answers: (path: string, identity: string) => ProbeResponse,
  tokens: Record<string, string> = {},
): Promise<Learned> {
  const description = describeApi(operationsOf(document, BASE), document);
  const identities = ['first', 'other'].map((name) =>
    createIdentity({
      name,
      credential: { kind: 'header', header: 'Authorization', value: `Bearer ${tokens[name] ?? name}` },
    }),
  );
  const ownership = createOwnership();
  const sent: string[] = [];
  await learnIdentities({
    description,
    identities,
    ownership,
    tokenOf: (identity) => tokens[identity.name],
    async send(operation, identity, request) {
      const path = new URL(request.url).pathname;
      sent.push(`${identity.name} ${operation.method} ${path}`);
      return answers(path, identity.name);
    },
  });
  return { sent, ownership, identities };
}

const owned = (learned: Learned, owner: string, resource: string): string[] =>
  learned.ownership.valuesOf(owner, resource, 'id').map((v) => `${v.value} (${v.from})`);

describe('the API model learns who each identity is and what it owns', () => {
  const shopAnswers = (path: string, identity: string): ProbeResponse => {
    const me = identity === 'first' ? 'u-1' : 'u-2';
    if (path === '/me') return answer(200, { id: me, username: identity === 'first' ? 'alice' : 'bob' });
    if (path === `/users/${me}/orders`) return answer(200, [{ id: identity === 'first' ? 'o-1' : 'o-2' }]);
    // A leaky list: every order, each naming its owner.
    if (path === '/orders')
      return answer(200, {
        items: [
          { id: 'o-1', userId: 'u-1' },
          { id: 'o-2', userId: 'u-2' },
          { id: 'o-9', userId: 'u-9' },
        ],
      });
    if (path === '/orders/o-1/lines') return answer(200, [{ id: 'l-1' }]);
    if (path === '/orders/o-2/lines') return answer(200, [{ id: 'l-2' }]);
    // The same catalogue for everyone.
    if (path === '/products') return answer(200, [{ id: 'p-1' }, { id: 'p-2' }]);
    return answer(404, { error: 'not found' });
  };

  it("learns each identity's own record from the me-like read, and owns it", async () => {
    const learned = await learn(shop(), shopAnswers);
    expect(learned.identities.map((i) => i.self)).to.deep.equal([
      { id: 'u-1', username: 'alice' },
      { id: 'u-2', username: 'bob' },
    ]);
    expect(learned.identities[0].selfFrom.id).to.equal('GET /me');
    expect(learned.ownership.ownerOf('user', 'username', 'alice')?.owner).to.equal('first');
  });

  it('owns what a list scoped to the identity holds, and what names it as owner in a list that leaks everyone’s', async () => {
    const learned = await learn(shop(), shopAnswers);
    expect(owned(learned, 'first', 'order')).to.deep.equal([
      'o-1 (GET /orders, its own list (the object names it as owner))',
    ]);
    expect(learned.sent).to.include('first GET /users/u-1/orders');
    expect(learned.ownership.ownerOf('order', 'id', 'o-2')?.owner).to.equal('other');
    expect(learned.ownership.ownerOf('order', 'id', 'o-9'), "a stranger's order").to.equal(undefined);
  });

  it("reads nested lists once their parent's id is known, as each identity, on its own objects", async () => {
    const learned = await learn(shop(), shopAnswers);
    expect(learned.sent).to.include.members(['first GET /orders/o-1/lines', 'other GET /orders/o-2/lines']);
    expect(learned.ownership.ownerOf('line', 'id', 'l-1')?.owner).to.equal('first');
  });

  it('owns nothing of a catalogue every identity sees alike', async () => {
    const learned = await learn(shop(), shopAnswers);
    expect(learned.sent).to.include('first GET /products');
    expect(learned.ownership.ownerOf('product', 'id', 'p-1')).to.equal(undefined);
  });

  it('owns what only its own answer lists when two identities read the same list that names no owner', async () => {
    const learned = await learn(shop(), (path, identity) =>
      path === '/orders' ? answer(200, [{ id: identity === 'first' ? 'o-1' : 'o-2' }]) : answer(404, {}),
    );
    expect(learned.ownership.ownerOf('order', 'id', 'o-1')?.owner).to.equal('first');
    expect(learned.ownership.ownerOf('order', 'id', 'o-2')?.owner).to.equal('other');
  });

  it('reads only the lists of resources some operation names, and never a list per enum value', async () => {
    const learned = await learn(shop(), shopAnswers);
    expect(learned.sent.filter((line) => line.includes('/reports'))).to.deep.equal([]);
  });

  it("takes a token's subject for the username only once reading that user back as the identity shows it", async () => {
    const jwt = (sub: string): string =>
      `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.c2ln`;
    const learned = await learn(
      usersAndBooks(),
      (path) => {
        if (path === '/users/v1/alice') return answer(200, { username: 'alice', email: 'alice@example.com' });
        if (path === '/users/v1/u-42') return answer(200, { username: 'someone-else' });
        return answer(404, {});
      },
      { first: jwt('alice'), other: jwt('u-42') },
    );
    expect(learned.identities[0].self.username).to.equal('alice');
    expect(learned.identities[0].selfFrom.username).to.equal(
      "its token's subject, read back with GET /users/v1/{username}",
    );
    expect(learned.identities[1].self.username, 'the answer named another user').to.equal(undefined);
  });
});
