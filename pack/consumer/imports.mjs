// A JavaScript consumer: each entry point of the installed package imports and exposes what the README promises.
import assert from 'node:assert/strict';
import * as idp from 'gatehouse/idp';
import * as scanner from 'gatehouse/scanner';
import * as service from 'gatehouse/service';

assert.equal(typeof idp.createIdp, 'function');
assert.equal(typeof scanner.defineCheck, 'function');
assert.equal(typeof scanner.defineOption, 'function');
assert.equal(typeof service.createApp, 'function');
assert.equal(typeof service.serviceConfig, 'function');
assert.equal(typeof service.createMemoryStore, 'function');
assert.equal(typeof service.createMongoStore, 'function');
// Programmatic options are validated like the command line's: an unknown option is one error naming it.
await assert.rejects(() => idp.createIdp({ port: 0, prot: 1 }), /prot/);
console.log('imports: gatehouse/idp, gatehouse/scanner, gatehouse/service');
