#!/usr/bin/env bun
/**
 * Builds the npm packages (docs/release.md, "npm packages") in the esbuild pattern: one package per
 * release target, `@rehydrate/<os>-<arch>[-musl]`, holding that target's native binary, and the
 * `rehydrate` package, whose `rehydrate` command (npm/rehydrate/bin/rehydrate, a Node shim) runs
 * the binary npm installed for the machine until its postinstall step (npm/rehydrate/install.js)
 * puts that binary in the shim's place. Each package is staged in a temporary directory and packed
 * with `npm pack`; the tarballs land in --outdir.
 *
 *   bun scripts/npm-pack.ts                      every target, from dist/release/, into dist/npm/
 *   bun scripts/npm-pack.ts --target linux-x64,darwin-arm64
 *   bun scripts/npm-pack.ts --target host --binary dist/rehydrate --outdir DIR
 *                                                the host's package from a host build (the test's way)
 *   bun scripts/npm-pack.ts --release-dir DIR    take the binaries from DIR (default dist/release)
 *
 * The version is package.json's. The `rehydrate` package lists every target of build.ts as an
 * optional dependency of exactly that version, whether packed here or not: npm installs the one
 * whose os, cpu and libc match the machine and skips the rest. It pins the SHA-256 of each binary
 * packed in the same run (`binarySha256`), which its shim and postinstall step check.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { TARGETS } from "../build.ts";

const ROOT = resolve(import.meta.dirname!, "..");
const SCOPE = "@rehydrate";

/** What npm needs to know about one release target's package. */
export interface NpmPlatform {
  /** `@rehydrate/linux-x64-musl`: Node's names for the os and cpu, as the shim computes them. */
  name: string;
  os: string;
  cpu: string;
  /** Linux only: npm skips a package whose libc differs from the machine's. */
  libc?: "glibc" | "musl";
  /** The binary's file name inside the package. */
  exe: string;
}

/**
 * The npm package of a build.ts release target (`windows-x64` → `@rehydrate/win32-x64`, in
 * Node's `process.platform` names, which is what the shim looks up). Throws on a target it does not
 * know, so a new entry in build.ts's TARGETS cannot ship without a package.
 *
 * @example
 * ```ts
 * npmPlatform("linux-arm64-musl"); // { name: "@rehydrate/linux-arm64-musl", os: "linux", cpu: "arm64", libc: "musl", exe: "rehydrate" }
 * ```
 */
export function npmPlatform(target: string): NpmPlatform {
  const m = target.match(/^(linux|darwin|windows)-(x64|arm64)(-musl)?$/);
  if (!m || (m[3] && m[1] !== "linux")) throw new Error(`no npm package for the target "${target}"`);
  const os = m[1] === "windows" ? "win32" : m[1];
  const libc = os === "linux" ? (m[3] ? "musl" : "glibc") : undefined;
  return {
    name: `${SCOPE}/${os}-${m[2]}${m[3] ?? ""}`,
    os,
    cpu: m[2],
    ...(libc ? { libc } : {}),
    exe: os === "win32" ? "rehydrate.exe" : "rehydrate",
  };
}

function platformManifest(p: NpmPlatform, version: string): Record<string, unknown> {
  return {
    name: p.name,
    version,
    description: `The rehydrate binary for ${p.os}-${p.cpu}${
      p.libc ? ` (${p.libc})` : ""
    }, installed by the rehydrate package`,
    license: "MIT",
    os: [p.os],
    cpu: [p.cpu],
    ...(p.libc ? { libc: [p.libc] } : {}),
    files: [`bin/${p.exe}`],
    // Yarn's Plug'n'Play would otherwise keep the binary inside a zip file, where it cannot run.
    preferUnplugged: true,
  };
}

/**
 * The `rehydrate` package's manifest: every target an optional dependency of `version`, and the
 * SHA-256 of each platform binary packed here, which the shim and install.js check before they run
 * or copy it (issue #36, N6). A target not packed in the same run has no pin: its package is
 * refused until a pack of all targets (a release) pins it.
 */
function mainManifest(version: string, pins: Record<string, string>): Record<string, unknown> {
  const template = JSON.parse(readFileSync(join(ROOT, "npm", "rehydrate", "package.json"), "utf8"));
  const optionalDependencies = Object.fromEntries(Object.keys(TARGETS).map((t) => [npmPlatform(t).name, version]));
  return { name: template.name, version, ...template, optionalDependencies, binarySha256: pins };
}

/** Packs the directory `dir` into `outDir` with npm; returns the tarball's file name. */
function npmPack(dir: string, outDir: string): string {
  const win = process.platform === "win32";
  // npm is a .cmd on Windows, which only a shell runs: quote the one path for it.
  const r = spawnSync(
    win ? "npm.cmd" : "npm",
    ["pack", "--json", "--ignore-scripts", "--pack-destination", win ? `"${outDir}"` : outDir],
    { cwd: dir, encoding: "utf8", shell: win },
  );
  if (r.status !== 0) throw new Error(`npm pack failed in ${dir}: ${r.error?.message ?? r.stderr}`);
  return JSON.parse(r.stdout)[0].filename;
}

function hostTarget(): string {
  return `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
}

function main(): void {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      target: { type: "string", default: "all" },
      binary: { type: "string" },
      "release-dir": { type: "string", default: join(ROOT, "dist", "release") },
      outdir: { type: "string", default: join(ROOT, "dist", "npm") },
    },
  });
  const version: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
  const targets = values.target === "all"
    ? Object.keys(TARGETS)
    : values.target!.split(",").map((t) => (t === "host" ? hostTarget() : t));
  for (const t of targets) {
    if (!TARGETS[t]) throw new Error(`unknown target "${t}"; known: host, all, ${Object.keys(TARGETS).join(", ")}`);
  }
  if (values.binary !== undefined && targets.length !== 1) throw new Error("--binary needs exactly one --target");

  const outDir = resolve(values.outdir!);
  mkdirSync(outDir, { recursive: true });
  // Tarballs of an earlier run would be published with these: start from none.
  for (const f of readdirSync(outDir)) if (/^rehydrate-.*\.tgz$/.test(f)) rmSync(join(outDir, f));
  const stage = join(outDir, `.stage-${process.pid}`);
  const pins: Record<string, string> = {};
  try {
    for (const t of targets) {
      const p = npmPlatform(t);
      const binary = values.binary !== undefined
        ? resolve(values.binary)
        : join(values["release-dir"]!, `rehydrate-${version}-${t}${t.startsWith("windows") ? ".exe" : ""}`);
      if (!statSync(binary, { throwIfNoEntry: false })?.isFile()) throw new Error(`no binary for ${t} at ${binary}`);
      const dir = join(stage, t);
      mkdirSync(join(dir, "bin"), { recursive: true });
      copyFileSync(binary, join(dir, "bin", p.exe));
      chmodSync(join(dir, "bin", p.exe), 0o755);
      pins[p.name] = createHash("sha256").update(readFileSync(join(dir, "bin", p.exe))).digest("hex");
      writeFileSync(join(dir, "package.json"), JSON.stringify(platformManifest(p, version), null, 2) + "\n");
      writeFileSync(
        join(dir, "README.md"),
        `# ${p.name}\n\nThe native \`rehydrate\` binary for ${p.os}-${p.cpu}${
          p.libc ? ` (${p.libc})` : ""
        }. The \`rehydrate\` package installs it as an optional dependency; install that one.\n`,
      );
      const file = npmPack(dir, outDir);
      console.log(`packed ${file} (${(statSync(join(outDir, file)).size / 1e6).toFixed(1)} MB)`);
    }
    const dir = join(stage, "rehydrate");
    const manifest = mainManifest(version, pins);
    // The manifest's "files", and the README npm shows; bin/rehydrate keeps its mode 0755.
    for (const file of [...(manifest.files as string[]), "README.md"]) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(join(ROOT, "npm", "rehydrate", file), join(dir, file));
    }
    chmodSync(join(dir, "bin", "rehydrate"), 0o755);
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
    console.log(`packed ${npmPack(dir, outDir)}`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    main();
  } catch (err) {
    console.error(`npm-pack: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
