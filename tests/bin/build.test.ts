// build.ts is tested like the product: a release build for the host and two cross targets, with
// names, checksums and the host binary's --version checked.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIST, EXE, ROOT, run } from "./_bin.ts";
import { COMPILE_FLAGS, JIT_POLICY } from "../../build_flags.ts";

const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const HOST = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch === "arm64" ? "arm64" : "x64"}`;

test("build.ts --release writes one binary per target and a SHA256SUMS that matches them", () => {
  const out = mkdtempSync(join(tmpdir(), "rehydrate-release-"));
  try {
    const targets = [...new Set([HOST, "linux-arm64", "windows-x64"])];
    const r = spawnSync(process.execPath, ["build.ts", "--release", "--target", targets.join(","), "--outdir", out], { cwd: ROOT, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr + r.stdout);
    const dir = join(out, "release");
    const expected = targets.map((t) => `rehydrate-${VERSION}-${t}${t.startsWith("windows") ? ".exe" : ""}`).sort();
    assert.deepEqual(readdirSync(dir).filter((f) => f !== "SHA256SUMS").sort(), expected);
    const sums = readFileSync(join(dir, "SHA256SUMS"), "utf8").trim().split("\n");
    assert.equal(sums.length, targets.length);
    for (const line of sums) {
      const [hash, file] = line.split(/\s+/);
      assert.equal(createHash("sha256").update(readFileSync(join(dir, file))).digest("hex"), hash, file);
    }
    const host = run(join(dir, `rehydrate-${VERSION}-${HOST}${HOST.startsWith("windows") ? ".exe" : ""}`), ["--version"]);
    assert.equal(host.stdout.trim(), VERSION);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("build.ts refuses an unknown target with a one-line error", () => {
  const r = spawnSync(process.execPath, ["build.ts", "--target", "plan9-mips", "--outdir", mkdtempSync(join(tmpdir(), "rehydrate-bad-"))], { cwd: ROOT, encoding: "utf8" });
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
    writeFileSync(probe, [
      'import { writeSync } from "node:fs";',
      "function probeWork(i: number): number { return (i * 7) % 13; }",
      "let s = 0;",
      "for (let i = 0; i < 1000; i++) s += probeWork(i);",
      "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);",
      "writeSync(1, String(s));",
    ].join("\n"));
    const compiled = (flags: string[], name: string): number => {
      const out = join(dir, name + EXE);
      const b = spawnSync(process.execPath, ["build", ...flags, "--bytecode", probe, "--outfile", out], { cwd: ROOT, encoding: "utf8" });
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

test("the multicall binary is split: each hook's code is a module of its own, loaded only by `rehydrate <hook>`", () => {
  // Bundled as one file, `rehydrate stop` paid for every hook and verb it never runs (10.3 million
  // instructions against dist/stop's 7.6 million; 8.4 million split). The split build embeds
  // each `import()` target as its own module, named after its file.
  const bytes = readFileSync(join(DIST, "rehydrate" + EXE));
  for (const hook of ["pre_compact_hook", "post_compact_hook", "session_start_hook", "user_prompt_submit_hook", "pre_tool_use_hook", "post_tool_use_hook", "stop_hook", "cli_install", "cli_doctor"]) {
    assert.ok(bytes.indexOf(`/${hook}-`) !== -1, `no separate module for ${hook} in dist/rehydrate`);
  }
  // The hook binaries stay one CommonJS bundle each (faster as such: see build.ts).
  assert.equal(readFileSync(join(DIST, "stop" + EXE)).indexOf("/stop_hook-"), -1);
  // And the split binary still runs a hook: bad input gives exit 0 and no output.
  const r = run(join(DIST, "rehydrate" + EXE), ["stop"], { stdin: "{" });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "");
});
