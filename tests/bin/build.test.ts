// build.ts is tested like the product: a release build for the host and two cross targets, with
// names, checksums and the host binary's --version checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIST, EXE, HOOKS, ROOT, run } from "./_bin.ts";
import { COMPILE_FLAGS, JIT_POLICY, MULTICALL_ENTRIES, MULTICALL_FLAGS } from "../../build_flags.ts";

const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const HOST = `${process.platform === "win32" ? "windows" : process.platform}-${
  process.arch === "arm64" ? "arm64" : "x64"
}`;

test("build.ts --release writes one binary per target and a SHA256SUMS that matches them", () => {
  const out = mkdtempSync(join(tmpdir(), "rehydrate-release-"));
  try {
    const targets = [...new Set([HOST, "linux-arm64", "windows-x64"])];
    const r = spawnSync(process.execPath, ["build.ts", "--release", "--target", targets.join(","), "--outdir", out], {
      cwd: ROOT,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const dir = join(out, "release");
    const expected = targets.map((t) => `rehydrate-${VERSION}-${t}${t.startsWith("windows") ? ".exe" : ""}`).sort();
    // Besides the binaries and SHA256SUMS: install.sh and the plugin launcher, pinned to them (scripts/pin-release.ts).
    const scripts = ["SHA256SUMS", "install.sh", "rehydrate-launcher"];
    assert.deepEqual(readdirSync(dir).filter((f) => !scripts.includes(f)).sort(), expected);
    assert.match(readFileSync(join(dir, "install.sh"), "utf8"), new RegExp(`^PINNED_VERSION="${VERSION}"$`, "m"));
    const sums = readFileSync(join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
    assert.equal(sums.length, targets.length);
    for (const line of sums) {
      const [hash, file] = line.split(/\s+/);
      assert.equal(createHash("sha256").update(readFileSync(join(dir, file))).digest("hex"), hash, file);
    }
    const host = run(join(dir, `rehydrate-${VERSION}-${HOST}${HOST.startsWith("windows") ? ".exe" : ""}`), [
      "--version",
    ]);
    assert.equal(host.stdout.trim(), VERSION);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("build.ts refuses an unknown target with a one-line error", () => {
  const r = spawnSync(process.execPath, [
    "build.ts",
    "--target",
    "plan9-mips",
    "--outdir",
    mkdtempSync(join(tmpdir(), "rehydrate-bad-")),
  ], { cwd: ROOT, encoding: "utf8" });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /unknown target "plan9-mips"/);
});

test("the compile flags' JIT policy is in force: a probe has fewer functions JIT-compiled than without it", () => {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-jit-"));
  try {
    // 1,000 calls of a small function, then a pause so that the JIT thread's reports are printed
    // before the exit. Here the normal policy compiled 3 functions in each of 30 runs (the probe
    // and two of Bun's own) and ours 1 in each of 30 runs.
    const probe = join(dir, "probe.ts");
    writeFileSync(
      probe,
      [
        'import { writeSync } from "node:fs";',
        "function probeWork(i: number): number { return (i * 7) % 13; }",
        "let s = 0;",
        "for (let i = 0; i < 1000; i++) s += probeWork(i);",
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);",
        "writeSync(1, String(s));",
      ].join("\n"),
    );
    const compiled = (flags: string[], name: string): number => {
      const out = join(dir, name + EXE);
      const b = spawnSync(process.execPath, ["build", ...flags, "--bytecode", probe, "--outfile", out], {
        cwd: ROOT,
        encoding: "utf8",
      });
      assert.equal(b.status, 0, b.stderr);
      const r = run(out, [], { env: { ...process.env, BUN_JSC_reportBaselineCompileTimes: "1" } });
      assert.equal(r.stdout, "6000");
      return r.stderr.split("\n").filter((l) => l.startsWith("Optimized")).length;
    };
    assert.ok(COMPILE_FLAGS.includes(`--compile-jit-policy=${JIT_POLICY}`) && JIT_POLICY > 1);
    const control = compiled(COMPILE_FLAGS.filter((f) => !f.startsWith("--compile-jit-policy")), "control");
    const ours = compiled(COMPILE_FLAGS, "ours");
    assert.ok(ours < control, `with the policy ${ours} functions compiled, without it ${control}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the multicall binary embeds each hook's entry and the CLI as bundles of their own, and `rehydrate <hook>` runs that bundle", () => {
  // Bundled as one file, `rehydrate stop` paid for every hook and verb it never runs (10.3 million
  // instructions against dist/stop's 7.6 million; 8.2 million as ES modules split by the bundler,
  // 7.7 million now). hooks/rehydrate.ts imports `./<hook>.ts` by a computed specifier, and
  // build.ts embeds every hook's entry and the CLI's next to it.
  const bytes = readFileSync(join(DIST, "rehydrate" + EXE));
  for (const entry of [...HOOKS, "cli"]) {
    assert.ok(bytes.indexOf(`root/${entry}.js`) !== -1, `no embedded bundle for ${entry} in dist/rehydrate`);
  }
  assert.deepEqual(
    [...MULTICALL_ENTRIES].sort(),
    [
      ...HOOKS.map((h) => `hooks/${h}.ts`),
      "hooks/user-prompt-submit-full.ts",
      "hooks/pre-compact-workflows.ts",
      "hooks/cli.ts",
    ].sort(),
  );
  // The usual prompt's fast path loads the full UserPromptSubmit hook from a bundle of its own, in
  // the hook binary as in this one.
  assert.ok(bytes.indexOf("root/user-prompt-submit-full.js") !== -1);
  assert.ok(readFileSync(join(DIST, "user-prompt-submit" + EXE)).indexOf("root/user-prompt-submit-full.js") !== -1);
  // PreCompact loads the workflows' parts (projects, orchestration, dispatch files) the same way.
  assert.ok(bytes.indexOf("root/pre-compact-workflows.js") !== -1);
  assert.ok(readFileSync(join(DIST, "pre-compact" + EXE)).indexOf("root/pre-compact-workflows.js") !== -1);
  // The stop hook's code is in the stop bundle only: not also in the dispatcher's or the CLI's
  // (a literal specifier in the dispatcher's import() would put that hook's code into its bundle).
  const marker = "re-read marker consumed: stop blocked once";
  const count = (b: Buffer) => b.toString("latin1").split(marker).length - 1;
  assert.ok(count(bytes) > 0);
  assert.equal(count(bytes), count(readFileSync(join(DIST, "stop" + EXE))));
  // The hook's own entry runs, with the arguments after the hook's name: bad input gives exit 0
  // and no output, --help is the Stop hook's help, --version its version.
  const bad = run(join(DIST, "rehydrate" + EXE), ["stop"], { stdin: "{" });
  assert.equal(bad.status, 0);
  assert.equal(bad.stdout, "");
  assert.match(run(join(DIST, "rehydrate" + EXE), ["stop", "--help"]).stdout, /^stop \S+: the rehydrate Stop hook/);
  assert.equal(run(join(DIST, "rehydrate" + EXE), ["pre-compact", "--version"]).stdout.trim(), VERSION);
  // Anything else is the CLI's: its help, its verbs, its errors.
  assert.match(run(join(DIST, "rehydrate" + EXE), ["--help"]).stdout, /^rehydrate \S+: compaction-survival hooks/);
  assert.match(run(join(DIST, "rehydrate" + EXE), ["status", "--help"]).stdout, /Usage: rehydrate status/);
});

test("a multicall binary whose hook bundle is missing still fails open: exit 0, nothing on stdout, one line on stderr", () => {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-multicall-"));
  try {
    // Built like dist/rehydrate, but with the CLI's entry only: no hook bundle to load.
    const out = join(dir, "rehydrate" + EXE);
    const b = spawnSync(process.execPath, [
      "build",
      ...COMPILE_FLAGS,
      "--bytecode",
      "hooks/rehydrate.ts",
      ...MULTICALL_FLAGS,
      "hooks/cli.ts",
      "--outfile",
      out,
    ], { cwd: ROOT, encoding: "utf8" });
    assert.equal(b.status, 0, b.stderr);
    const hook = run(out, ["stop"], { stdin: "{}" });
    assert.equal(hook.status, 0);
    assert.equal(hook.stdout, "");
    assert.match(hook.stderr, /^rehydrate: cannot load \.\/stop\.ts: the hook did nothing\n$/);
    assert.match(run(out, ["status", "--help"]).stdout, /Usage: rehydrate status/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
