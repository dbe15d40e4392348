import pkg from "../package.json" with { type: "json" };

/**
 * The rehydrate version. `package.json` is the one version source; the
 * bundler inlines it into every binary at build time, so nothing is read from
 * disk at run time.
 *
 * @example
 * ```ts
 * console.log(`rehydrate ${VERSION}`);
 * ```
 */
export const VERSION: string = pkg.version;
