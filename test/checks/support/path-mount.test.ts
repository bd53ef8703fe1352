import { expect } from 'chai';
import { pathMount } from '../../../checks/support/path-mount.js';
import { operation } from './object-test-operation.js';

const at = (path: string, origin = 'https://api.example.com') =>
  operation({ id: `GET ${path}`, url: `${origin}/base${path}`, path });

describe('pathMount (where a server sets up middleware per sub-API)', () => {
  it('is the origin and the first segment of the path template', () => {
    expect(pathMount(at('/orders/{orderId}'))).to.equal('https://api.example.com /orders');
    expect(pathMount(at('/orders'))).to.equal(pathMount(at('/orders/{orderId}/items')));
    expect(pathMount(at('/audit-log'))).to.not.equal(pathMount(at('/orders')));
  });

  it('runs past a shared prefix, a version or a path parameter to the first segment that names something', () => {
    expect(pathMount(at('/api/v1/users/{id}'))).to.equal('https://api.example.com /api/v1/users');
    expect(pathMount(at('/api/legacy/orders'))).to.equal('https://api.example.com /api/legacy');
    expect(pathMount(at('/api/users'))).to.not.equal(pathMount(at('/api/account')));
    expect(pathMount(at('/{tenant}/orders'))).to.equal('https://api.example.com /{tenant}/orders');
    expect(pathMount(at('/v2'))).to.equal('https://api.example.com /v2');
  });

  it('keeps origins apart', () => {
    expect(pathMount(at('/orders', 'https://a.example.com'))).to.not.equal(pathMount(at('/orders')));
  });
});
