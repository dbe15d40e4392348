#!/usr/bin/env bun
/**
 * Builds the native single-file binaries with `bun build --compile`.
 *
 *   bun build.ts                       host binaries: dist/<hook> for every hook + dist/rehydrate
 *   bun build.ts --target linux-arm64  the same for another target (dist/<target>/...)
 *   bun build.ts --target all --release
 *                                      dist/release/rehydrate-<version>-<target>[.exe] for every
 *                                      release target, plus SHA256SUMS
 *   bun build.ts --only rehydrate      build just the named binaries (comma-separated)
 *   bun build.ts --no-bytecode         leave out the bytecode cache (on by default: the benchmark
 *                                      measured hook medians about a third lower with it)
 *   bun build.ts --outdir DIR          write to DIR instead of dist/
 *
 * Every compile-time autoload is turned off: a hook runs in the user's project, and a binary
 * that honoured a `bunfig.toml` preload or a `.env` from there would be a code-execution hole
 * (tests/bin/autoload.test.ts proves it is off). Host binaries are smoke-run with --version.
 *
 * This script is build tooling and may use Bun APIs; hooks/ and lib/ may not.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";

const ROOT = import.meta.dirname;
const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;

/** Hook binaries: dist/<name> from hooks/<name>.ts. */
export const HOOKS = [
  "pre-compact",
  "post-compact",
  "session-start",
  "user-prompt-submit",
  "pre-tool-use",
  "post-tool-use",
  "stop",
] as const;

/** Every binary: the hooks plus the multicall `rehydrate`. */
export const BINARIES = [...HOOKS, "rehydrate"] as const;

/** Release targets: our name → Bun's --target. */
export const TARGETS: Record<string, string> = {
  "linux-x64": "bun-linux-x64",
  "linux-arm64": "bun-linux-arm64",
  "linux-x64-musl": "bun-linux-x64-musl",
  "linux-arm64-musl": "bun-linux-arm64-musl",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
};

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

function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  return `${os}-${arch}`;
}

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

function compile(entry: string, outfile: string, bunTarget: string | null, bytecode: boolean): void {
  const args = [process.execPath, "build", ...COMPILE_FLAGS, entry, "--outfile", outfile];
  if (entry === join("hooks", "rehydrate.ts")) args.push(...MULTICALL_FLAGS);
  if (bunTarget) args.push(`--target=${bunTarget}`);
  if (bytecode) args.push("--bytecode");
  const r = Bun.spawnSync(args, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) {
    throw new Error(`bun build failed for ${entry} (${bunTarget ?? "host"}):\n${r.stderr.toString()}${r.stdout.toString()}`);
  }
}

function smoke(path: string): void {
  const r = Bun.spawnSync([path, "--version"], { stdout: "pipe", stderr: "pipe", cwd: ROOT });
  const out = r.stdout.toString().trim();
  if (r.exitCode !== 0 || out !== VERSION) {
    throw new Error(`smoke run failed: ${path} --version printed "${out}" (exit ${r.exitCode}), expected ${VERSION}`);
  }
}

function sha256(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function mb(path: string): string {
  return `${(statSync(path).size / 1e6).toFixed(1)} MB`;
}

function main(): void {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      target: { type: "string", default: "host" },
      release: { type: "boolean", default: false },
      only: { type: "string" },
      "no-bytecode": { type: "boolean", default: false },
      outdir: { type: "string", default: join(ROOT, "dist") },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(readFileSync(import.meta.filename, "utf8").split("\n").slice(2, 16).map((l) => l.replace(/^ \* ?/, "")).join("\n"));
    return;
  }
  const host = hostTarget();
  const wanted = values.target === "all" ? Object.keys(TARGETS) : values.target!.split(",").map((t) => (t === "host" ? host : t));
  for (const t of wanted) {
    if (!TARGETS[t]) throw new Error(`unknown target "${t}"; known: host, all, ${Object.keys(TARGETS).join(", ")}`);
  }
  const names = values.only
    ? values.only.split(",")
    : values.release
    ? ["rehydrate"]
    : [...BINARIES];
  for (const n of names) {
    if (!(BINARIES as readonly string[]).includes(n)) throw new Error(`unknown binary "${n}"; known: ${BINARIES.join(", ")}`);
  }

  if (values.release) {
    const outDir = join(values.outdir!, "release");
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const sums: string[] = [];
    for (const t of wanted) {
      for (const n of names) {
        const file = `${n}-${VERSION}-${t}${t.startsWith("windows") ? ".exe" : ""}`;
        const out = join(outDir, file);
        compile(join("hooks", `${n}.ts`), out, TARGETS[t], !values["no-bytecode"]);
        if (t === host) smoke(out);
        sums.push(`${sha256(out)}  ${file}`);
        console.log(`built ${file} (${mb(out)})`);
      }
    }
    writeFileSync(join(outDir, "SHA256SUMS"), sums.join("\n") + "\n");
    console.log(`wrote dist/release/SHA256SUMS (${sums.length} files)`);
    return;
  }

  for (const t of wanted) {
    const outDir = t === host ? values.outdir! : join(values.outdir!, t);
    mkdirSync(outDir, { recursive: true });
    for (const n of names) {
      const out = join(outDir, n + (t.startsWith("windows") ? ".exe" : ""));
      // Cross-compiling fetches the target runtime from the npm registry; the host build uses this Bun.
      compile(join("hooks", `${n}.ts`), out, t === host ? null : TARGETS[t], !values["no-bytecode"]);
      if (t === host) smoke(out);
      console.log(`built ${relative(ROOT, out)} (${mb(out)})`);
    }
  }
}

if (import.meta.main) {
  try {
    main();
  } catch (err) {
    console.error(`build.ts: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
