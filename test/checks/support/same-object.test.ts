import { expect } from 'chai';
import { carriesData, sameObject } from '../../../checks/support/same-object.js';

describe('checks/support/same-object', () => {
  it('calls equal JSON (whatever the spacing) and equal text the same object', () => {
    expect(sameObject('{"id":"o1","item":"x"}', '{ "id": "o1", "item": "x" }')).to.equal(true);
    expect(sameObject('plain text', 'plain text')).to.equal(true);
  });

  it('calls two JSON objects with the same id the same object, even when other fields differ', () => {
    expect(sameObject('{"id":"o1","fetchedAt":"1"}', '{"id":"o1","fetchedAt":"2"}')).to.equal(true);
  });

  it('tells different objects apart (each user their own profile)', () => {
    expect(sameObject('{"id":"usr_alice"}', '{"id":"usr_bob"}')).to.equal(false);
    expect(sameObject('{"name":"alice"}', '{"name":"bob"}')).to.equal(false);
  });

  it('says empty lists, paging numbers and nulls carry no data, so equal empty answers prove nothing', () => {
    for (const body of ['', '{}', '[]', '{"items":[],"page":1,"total":0}', '{"next":null}'])
      expect(carriesData(body), body).to.equal(false);
    for (const body of ['{"items":[{"id":"o1"}]}', 'hello']) expect(carriesData(body), body).to.equal(true);
  });
});
