/**
 * The flags and entries every `bun build --compile` of build.ts uses, and the benchmark's floor with them.
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

/** Hook binaries: dist/<name> from hooks/<name>.ts. */
export const HOOKS = [
  "pre-compact",
  "post-compact",
  "session-start",
  "user-prompt-submit",
  "pre-tool-use",
  "post-tool-use",
  "stop",
  "session-checkpoint",
  "post-model-switch",
] as const;

/**
 * Entries a hook binary embeds besides its own, as bundles of their own that it loads by a computed
 * name (with `--root hooks`, as the multicall binary does): the usual prompt's fast path never
 * loads the full UserPromptSubmit hook (bench/README.md, "The usual prompt's fast path"), and the
 * PreCompact of an ordinary repository never loads the workflows' parts (projects, orchestration,
 * dispatch files: about a third of its code).
 */
export const HOOK_EXTRA_ENTRIES: Readonly<Record<string, readonly string[]>> = {
  "user-prompt-submit": ["hooks/user-prompt-submit-full.ts"],
  "pre-compact": ["hooks/pre-compact-workflows.ts"],
};

/**
 * The multicall binary embeds, besides its own entry (hooks/rehydrate.ts, a dispatcher), every
 * hook's entry and the CLI's as bundles of their own: `rehydrate <hook>` loads `./<hook>.ts` by a
 * computed name, which the bundler leaves to run time, so a hook run loads that hook's bundle and
 * nothing else. `--root hooks` puts those bundles next to the dispatcher in the binary's file
 * system, where that specifier finds them.
 *
 * Measured (bench/README.md, "The multicall binary"): bundled as one CommonJS file, `rehydrate stop`
 * executed 10.3 million instructions against `dist/stop`'s 7.6 million (the code of every
 * `import()` target lands in one scope and costs at start whether it runs or not); as ES modules
 * split by the bundler, 8.2 million; as embedded entries, 7.7 million. Every bundle is CommonJS,
 * as the hook binaries are (as ES modules they were 0.1-0.2 million instructions slower).
 */
export const MULTICALL_ENTRIES: readonly string[] = [
  ...HOOKS.flatMap((h) => [`hooks/${h}.ts`, ...(HOOK_EXTRA_ENTRIES[h] ?? [])]),
  "hooks/cli.ts",
];

/** Flags for the multicall binary only (see {@linkcode MULTICALL_ENTRIES}). */
export const MULTICALL_FLAGS = ["--root", "hooks"];
