import { expect } from 'chai';
import { markedWrite, restoringBody, showsMarker, valueOf } from '../../../checks/support/write-marker.js';

describe('write-marker', () => {
  it('marks a free-text field before other strings, and never an id, owner, e-mail or status field', () => {
    const write = markedWrite(
      JSON.stringify({ id: 'x1', ownerId: 'u1', email: 'a@b.c', status: 'open', code: 'A', title: 'Old' }),
      'PUT /notes/{id}',
    )!;
    expect(write.field).to.equal('title');
    expect(write.marker).to.match(/^gatehouse-[0-9a-f]{12}$/);
    expect(JSON.parse(write.body)).to.deep.equal({
      id: 'x1',
      ownerId: 'u1',
      email: 'a@b.c',
      status: 'open',
      code: 'A',
      title: write.marker,
    });
  });

  it('falls back to an integer field, and gives up on bodies that are not JSON objects', () => {
    const write = markedWrite('{"quantity":2}', 'PATCH /orders/{id}')!;
    expect(write.field).to.equal('quantity');
    expect(write.marker).to.be.a('number').and.not.equal(2);
    expect(markedWrite('[1,2]', 's')).to.equal(undefined);
    expect(markedWrite('name=x', 's')).to.equal(undefined);
    expect(markedWrite(undefined, 's')).to.equal(undefined);
  });

  it('finds the marker in a read-back wrapped in an envelope, and builds the restoring body from the original value', () => {
    const write = markedWrite('{"name":"Old","quantity":2}', 'PUT /items/{id}')!;
    expect(showsMarker(JSON.stringify({ data: { name: write.marker } }), write)).to.equal(true);
    expect(showsMarker(JSON.stringify({ data: { name: 'Old' } }), write)).to.equal(false);
    expect(valueOf('{"data":{"name":"Old"}}', 'name')).to.equal('Old');
    expect(JSON.parse(restoringBody('{"name":"New","quantity":2}', write, 'Old'))).to.deep.equal({
      name: 'Old',
      quantity: 2,
    });
  });

  it('derives the marker from the seed, so runs repeat, and never picks the value the object already holds', () => {
    const first = markedWrite('{"name":"Old"}', 'PUT /items/{id}')!;
    expect(markedWrite('{"name":"Old"}', 'PUT /items/{id}')!.marker).to.equal(first.marker);
    expect(markedWrite('{"name":"Old"}', 'PUT /other/{id}')!.marker).to.not.equal(first.marker);
    const again = markedWrite('{"name":"Old"}', 'PUT /items/{id}', JSON.stringify({ name: first.marker }))!;
    expect(again.marker).to.not.equal(first.marker);
    const count = markedWrite('{"n":1}', 'seed')!;
    expect(markedWrite('{"n":1}', 'seed', JSON.stringify({ n: count.marker }))!.marker).to.equal(
      (count.marker as number) + 7,
    );
  });
});
