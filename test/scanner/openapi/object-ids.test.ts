import { expect } from 'chai';
import type { Operation, ProbeResponse } from '../../../scanner/api.js';
import { withObjectIds } from '../../../scanner/openapi/object-ids.js';

const BASE = 'http://127.0.0.1:9/api';

function operation(
  method: string,
  path: string,
  parameters: { name: string; value: string; given?: boolean; fixed?: boolean }[] = [],
): Operation {
  let filled = path;
  for (const p of parameters) filled = filled.replace(`{${p.name}}`, p.value);
  return {
    id: `${method} ${path}`,
    method,
    url: `${BASE}${filled}`,
    path,
    headers: {},
    cookies: {},
    securitySchemes: [],
    ...(parameters.length > 0
      ? {
          pathParameters: parameters.map((p) => ({
            name: p.name,
            value: p.value,
            given: p.given ?? false,
            ...(p.fixed ? { fixed: true } : {}),
          })),
        }
      : {}),
  };
}

const answer = (status: number, body: unknown): ProbeResponse => ({
  status,
  headers: {},
  setCookies: [],
  body: typeof body === 'string' ? body : JSON.stringify(body),
  durationMs: 1,
});

describe('object ids from the first identity’s answers (scanner/openapi/object-ids.ts)', () => {
  it('fills parameters level by level, falls back to POST, replaces examples, and leaves enum values alone', async () => {
    const sent: string[] = [];
    const answers: Record<string, ProbeResponse> = {
      'GET /orders': answer(200, [{ id: 'ord-1' }]),
      'GET /orders/{orderId}/lines': answer(200, { lines: [{ lineId: 'ln-7' }] }),
      'GET /carts': answer(200, []),
      'POST /carts': answer(201, { id: 'cart-3' }),
      'GET /users': answer(200, [{ id: 'u-1' }]),
      'GET /reports': answer(200, [{ id: 'r-1' }]),
    };
    const operations = [
      operation('GET', '/orders'),
      operation('GET', '/orders/{orderId}', [{ name: 'orderId', value: 'test' }]),
      operation('GET', '/orders/{orderId}/lines', [{ name: 'orderId', value: 'test' }]),
      operation('DELETE', '/orders/{orderId}/lines/{lineId}', [
        { name: 'orderId', value: 'test' },
        { name: 'lineId', value: 'test' },
      ]),
      operation('GET', '/carts'),
      operation('POST', '/carts'),
      operation('GET', '/carts/{cartId}', [{ name: 'cartId', value: '1' }]),
      operation('GET', '/users'),
      operation('GET', '/users/{userId}', [{ name: 'userId', value: 'usr_example', given: true }]),
      operation('GET', '/reports'),
      operation('GET', '/reports/{kind}', [{ name: 'kind', value: 'daily', given: true, fixed: true }]),
      operation('GET', '/things/{thingId}', [{ name: 'thingId', value: 'test' }]),
    ];
    const result = await withObjectIds(operations, async (op) => {
      sent.push(`${op.method} ${op.url.slice(BASE.length)}`);
      return answers[op.id] ?? answer(404, {});
    });
    const urls = Object.fromEntries(result.map((op) => [op.id, op.url.slice(BASE.length)]));
    expect(urls).to.deep.equal({
      'GET /orders': '/orders',
      'GET /orders/{orderId}': '/orders/ord-1',
      'GET /orders/{orderId}/lines': '/orders/ord-1/lines',
      'DELETE /orders/{orderId}/lines/{lineId}': '/orders/ord-1/lines/ln-7',
      'GET /carts': '/carts',
      'POST /carts': '/carts',
      'GET /carts/{cartId}': '/carts/cart-3',
      'GET /users': '/users',
      'GET /users/{userId}': '/users/u-1',
      'GET /reports': '/reports',
      'GET /reports/{kind}': '/reports/daily',
      'GET /things/{thingId}': '/things/test',
    });
    expect(sent).to.deep.equal(['GET /orders', 'GET /carts', 'POST /carts', 'GET /users', 'GET /orders/ord-1/lines']);
    expect(result.find((op) => op.id === 'DELETE /orders/{orderId}/lines/{lineId}')!.objectIds).to.deep.equal({
      orderId: { value: 'ord-1', from: 'GET /orders' },
      lineId: { value: 'ln-7', from: 'GET /orders/{orderId}/lines' },
    });
    expect(result.find((op) => op.id === 'GET /users/{userId}')!.objectIds).to.deep.equal({
      userId: { value: 'u-1', from: 'GET /users' },
    });
    expect(result.find((op) => op.id === 'GET /reports/{kind}')!.objectIds).to.equal(undefined);
  });

  it('leaves parameters generated when the collection answers an error or something other than JSON', async () => {
    const operations = [
      operation('GET', '/a'),
      operation('GET', '/a/{aId}', [{ name: 'aId', value: 'test' }]),
      operation('GET', '/b'),
      operation('GET', '/b/{bId}', [{ name: 'bId', value: 'test' }]),
    ];
    const result = await withObjectIds(operations, async (op) =>
      op.id === 'GET /a' ? answer(403, { id: 'nope' }) : answer(200, '<html>'),
    );
    expect(result.map((op) => op.url.slice(BASE.length))).to.deep.equal(['/a', '/a/test', '/b', '/b/test']);
  });
});
