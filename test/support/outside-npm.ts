/**
 * Suites that need something npm does not install (a MongoDB-wire server, a browser). Without it a suite is
 * pending, with one line saying why and how to enable it; in CI (CI=true) a suite that did not run is a failure,
 * so a green CI always means every suite ran.
 */

/** True when the run is CI's (`.ci/run` exports CI=true), where nothing may be left out. */
const inCi = process.env.CI === 'true';

/** Inside a describe: one pending test naming the reason, or in CI one failing test. */
export function notRunHere(reason: string): void {
  if (inCi) {
    it('runs in CI', function () {
      throw new Error(`${this.test?.parent?.fullTitle() ?? 'a suite'} did not run in CI: ${reason}`);
    });
  } else {
    it(`not run: ${reason}`);
  }
}

/** Registers `title` as a suite that did not run (see notRunHere). */
export function suiteNotRun(title: string, reason: string): void {
  describe(title, () => notRunHere(reason));
}
