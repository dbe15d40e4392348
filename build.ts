#!/usr/bin/env bun
/**
 * Builds the native single-file binaries with `bun build --compile`.
 *
 *   bun build.ts                       host binaries: dist/<hook> for every hook + dist/rehydrate
 *   bun build.ts --target linux-arm64  the same for another target (dist/<target>/...)
 *   bun build.ts --target all --release
 *                                      dist/release/rehydrate-<version>-<target>[.exe] for every
 *                                      release target, SHA256SUMS, and the npm tarballs (dist/npm/)
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
import { basename, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { COMPILE_FLAGS, HOOK_EXTRA_ENTRIES, HOOKS, MULTICALL_ENTRIES, MULTICALL_FLAGS } from "./build_flags.ts";
import { pinRelease } from "./scripts/pin-release.ts";

const ROOT = import.meta.dirname;
const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;

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

// The compile flags live in build_flags.ts (no Bun APIs there, so tests type-check under Deno).
export {
  COMPILE_FLAGS,
  HOOK_EXTRA_ENTRIES,
  HOOKS,
  JIT_POLICY,
  MULTICALL_ENTRIES,
  MULTICALL_FLAGS,
} from "./build_flags.ts";

function hostTarget(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "arm64" ? "arm64" : "x64";
  return `${os}-${arch}`;
}

function compile(entry: string, outfile: string, bunTarget: string | null, bytecode: boolean): void {
  const args = [process.execPath, "build", ...COMPILE_FLAGS, entry, "--outfile", outfile];
  if (entry === join("hooks", "rehydrate.ts")) args.push(...MULTICALL_FLAGS, ...MULTICALL_ENTRIES);
  const extra = HOOK_EXTRA_ENTRIES[basename(entry, ".ts")];
  if (extra) args.push(...MULTICALL_FLAGS, ...extra);
  if (bunTarget) args.push(`--target=${bunTarget}`);
  if (bytecode) args.push("--bytecode");
  const r = Bun.spawnSync(args, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) {
    throw new Error(
      `bun build failed for ${entry} (${bunTarget ?? "host"}):\n${r.stderr.toString()}${r.stdout.toString()}`,
    );
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
    console.log(
      readFileSync(import.meta.filename, "utf8").split("\n").slice(2, 16).map((l) => l.replace(/^ \* ?/, "")).join(
        "\n",
      ),
    );
    return;
  }
  const host = hostTarget();
  const wanted = values.target === "all"
    ? Object.keys(TARGETS)
    : values.target!.split(",").map((t) => (t === "host" ? host : t));
  for (const t of wanted) {
    if (!TARGETS[t]) throw new Error(`unknown target "${t}"; known: host, all, ${Object.keys(TARGETS).join(", ")}`);
  }
  const names = values.only ? values.only.split(",") : values.release ? ["rehydrate"] : [...BINARIES];
  for (const n of names) {
    if (!(BINARIES as readonly string[]).includes(n)) {
      throw new Error(`unknown binary "${n}"; known: ${BINARIES.join(", ")}`);
    }
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
    // install.sh and the plugin launcher with this release's hashes and repository (scripts/pin-release.ts).
    if (names.includes("rehydrate")) pinRelease(outDir);
    // The npm tarballs (docs/release.md, "npm packages") of a full release only: a partial one
    // (tests/bin/build.test.ts) has no use for them, and gzip takes seconds per target.
    if (values.target === "all" && names.includes("rehydrate")) {
      const npmOut = join(values.outdir!, "npm");
      const args = ["scripts/npm-pack.ts", "--target", wanted.join(","), "--release-dir", outDir, "--outdir", npmOut];
      if (Bun.spawnSync([process.execPath, ...args], { cwd: ROOT, stdout: "inherit", stderr: "inherit" }).exitCode) {
        throw new Error("scripts/npm-pack.ts failed");
      }
    }
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
