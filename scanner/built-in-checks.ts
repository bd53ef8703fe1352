/**
 * The built-in check modules compiled into the scanner's bundle (scanner/bundle/build.ts replaces this module with one
 * that imports every `checks/*.ts`). Outside the bundle it is `undefined` and the loader reads the `checks/` folder.
 */

/** One built-in check: its file name without extension (the check's id) and the module's default export. */
export interface BundledCheck {
  name: string;
  exported: unknown;
}

export const bundledChecks: readonly BundledCheck[] | undefined = undefined;
