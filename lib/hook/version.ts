/**
 * The rehydrate version: the same string as package.json's `version`
 * (tests/unit/hook/version.test.ts and scripts/check-release.sh fail when they differ). A literal
 * rather than an import of package.json: the bundler inlined the whole package.json object, and
 * building it cost every hook run about 45,000 instructions (the multicall binary twice that).
 *
 * @example
 * ```ts
 * console.log(`rehydrate ${VERSION}`);
 * ```
 */
export const VERSION: string = "0.1.0";
