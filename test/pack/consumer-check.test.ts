/**
 * The package installed from its tarball in a scratch project (pack/consumer-check.ts): each entry point imported from
 * JavaScript and compiled against from strict TypeScript, the bins run with npx, the IdP started in-process for a
 * token. Needs the npm registry for the dependencies (npm's cache first): pending offline, with the reason.
 */
import { expect } from 'chai';
import { consumerCheck, type StepResult } from '../../pack/consumer-check.js';
import { registryUnreachable } from '../../pack/scratch-install.js';
import { suiteNotRun } from '../support/outside-npm.js';

const TITLE = 'gatehouse installed from its packed tarball in a scratch project';
const STEPS = [
  'import each entry point from JavaScript',
  'tsc --noEmit, strict, against each entry point',
  'npx idp --help',
  'npx scanner --version',
  'a test starts the IdP in-process and gets a token',
];

const offline = await registryUnreachable();

if (offline) suiteNotRun(TITLE, `${offline}; to run it: npm run test:package with access to the registry`);
else
  describe(TITLE, function () {
    // npm pack and npm install (from npm's cache when it can), then the steps: about a minute on a busy machine.
    this.timeout(300_000);
    let results: StepResult[];

    before(async () => {
      results = await consumerCheck();
    });

    it('runs exactly the steps listed here', () => {
      expect(results.map((r) => r.step)).to.deep.equal(STEPS);
    });

    for (const step of STEPS)
      it(`passes: ${step}`, () => {
        const result = results.find((r) => r.step === step)!;
        expect(result.ok, result.output).to.equal(true);
      });
  });
