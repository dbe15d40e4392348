// hooks/rehydrate.ts run from source, as `bun hooks/rehydrate.ts <hook>` and `deno run -A
// hooks/rehydrate.ts <hook>` do: the dispatcher require()s (Bun) or import()s (Deno) the hook's
// own entry, or the CLI's. tests/bin/build.test.ts checks the same in the compiled binary.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../lib/hook/version.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const RUNTIME = "Deno" in globalThis ? [process.execPath, "run", "-A"] : [process.execPath];

function rehydrate(args: string[], stdin = "") {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-multicall-"));
  try {
    return spawnSync(RUNTIME[0], [...RUNTIME.slice(1), join(ROOT, "hooks", "rehydrate.ts"), ...args], {
      input: stdin,
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home, REHYDRATE_STATE_DIR: join(home, "state"), NO_COLOR: "1" },
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

test("rehydrate <hook> runs that hook's entry with the arguments after its name", () => {
  const help = rehydrate(["stop", "--help"]);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^stop \S+: the rehydrate Stop hook/);
  const bad = rehydrate(["user-prompt-submit"], "{ not json");
  assert.equal(bad.status, 0, bad.stderr);
  assert.equal(bad.stdout, "");
});

test("rehydrate --version answers itself; anything else is the CLI's", () => {
  assert.equal(rehydrate(["--version"]).stdout, `${VERSION}\n`);
  const status = rehydrate(["status", "--help"]);
  assert.equal(status.status, 0, status.stderr);
  assert.match(status.stdout, /Usage: rehydrate status/);
  const unknown = rehydrate(["frobnicate"]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^rehydrate: unknown command "frobnicate"\nTry 'rehydrate --help'\.\n$/);
  assert.match(rehydrate(["--help"]).stdout, /^rehydrate \S+: compaction-survival hooks/);
});
