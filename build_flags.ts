/**
 * The flags every `bun build --compile` of build.ts uses, and the benchmark's floor with them.
 * Plain constants, no Bun API: tests/bin/build.test.ts imports them and `deno check` reads it.
 *
 * @module
 */

/**
 * JavaScriptCore's tier-up thresholds are multiplied by this in every binary. A hook lives for a
 * few milliseconds and runs most of its code once; at the normal policy (1) the JIT compiled
 * dozens of functions per run on a second thread that cost more than they saved (bench/README.md,
 * "JIT policy"). 30 kept code that runs once in the interpreter (PreCompact 47 -> 40 ms on the
 * 500 MB case, SessionStart about 12 % faster) while loops that really run long still tier up: on
 * a transcript of 16 MB of long assistant texts PreCompact was no slower at 30, 25 % slower at
 * 100 and 80 % slower at 1000.
 */
export const JIT_POLICY = 30;

/** Flags shared by every compile: the floor binary in bench/ uses the same ones. */
export const COMPILE_FLAGS = [
  "--compile",
  "--minify",
  `--compile-jit-policy=${JIT_POLICY}`,
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
];

/**
 * Flags for the multicall binary only: ES modules with code splitting, so `rehydrate <hook>`
 * loads that hook's code and the code it shares, not every hook and verb. Bundled as one CommonJS
 * file (like the hook binaries), the code of every `import()` target lands in one scope, and a
 * run pays for all of it even though only one hook's modules are initialised: `rehydrate stop`
 * executed 10.3 million instructions against `dist/stop`'s 7.6 million; split, 8.4 million
 * (bench/README.md, "The multicall binary"). The hook binaries stay CommonJS: as ES modules they
 * were 0.1-0.2 million instructions slower.
 */
export const MULTICALL_FLAGS = ["--format=esm", "--splitting"];
