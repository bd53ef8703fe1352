/** Thrown by `ctx.skip(reason)` (and by a send the scan refuses); the runner turns it into a skipped result. */
export class SkipSignal extends Error {
  /** `incomplete`: the check could not run for a reason that leaves the scan incomplete (not "does not apply"). */
  constructor(
    readonly reason: string,
    readonly incomplete = false,
  ) {
    super(reason);
  }
}
