import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, ROOT, run } from "./_bin.ts";
import { hooksFor } from "../../lib/cli/_install_plan.ts";

const FIX = join(ROOT, "tests", "fixtures", "settings");

function sandbox(): { home: string; project: string; env: Record<string, string | undefined> } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-install-bin-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "docs", "handler-dispatches"), { recursive: true });
  return { home, project, env: { PATH: process.env.PATH, HOME: home, REHYDRATE_STATE_DIR: join(root, "state") } };
}

test("rehydrate install registers the compiled binary itself, twice changes nothing, uninstall restores the file", () => {
  const s = sandbox();
  const rehydrate = bin("rehydrate");
  mkdirSync(join(s.project, ".claude"));
  // The default install is this machine's: .claude/settings.local.json, by the binary's own path.
  const file = join(s.project, ".claude", "settings.local.json");
  const original = readFileSync(join(FIX, "claude-code-style.json"), "utf8");
  writeFileSync(file, original);

  const dry = run(rehydrate, ["install", "--dry-run"], { cwd: s.project, env: s.env });
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /Workflows: dispatch \(docs\/handler-dispatches\/ exists\)/);
  assert.match(dry.stdout, /^\+\+\+ b\/\.claude\/settings\.local\.json$/m);
  assert.equal(readFileSync(file, "utf8"), original);

  const first = run(rehydrate, ["install"], { cwd: s.project, env: s.env });
  assert.equal(first.status, 0, first.stderr);
  const installed = readFileSync(file, "utf8");
  const hooks = JSON.parse(installed).hooks;
  assert.equal(hooks.PreCompact[0].hooks[0].command, `${rehydrate} pre-compact`);
  assert.ok(!installed.includes("$bunfs") && !installed.includes("~BUN"));
  assert.equal(
    readdirSync(join(s.project, ".claude")).filter((n) => n.startsWith("settings.local.json.bak-")).length,
    1,
  );

  const second = run(rehydrate, ["install"], { cwd: s.project, env: s.env });
  assert.equal(second.status, 0);
  assert.match(second.stdout, /Already installed/);
  assert.equal(readFileSync(file, "utf8"), installed);

  const removed = run(rehydrate, ["uninstall"], { cwd: s.project, env: s.env });
  assert.equal(removed.status, 0, removed.stderr);
  assert.equal(readFileSync(file, "utf8"), original);
});

test("the installed commands run: rehydrate doctor passes them, with latency, and status answers JSON", () => {
  const s = sandbox();
  const rehydrate = bin("rehydrate");
  assert.equal(run(rehydrate, ["install", "--workflows", "dispatch"], { cwd: s.project, env: s.env }).status, 0);
  const doctor = run(rehydrate, ["doctor", "--json"], { cwd: s.project, env: s.env });
  assert.equal(doctor.status, 0, doctor.stdout + doctor.stderr);
  const report = JSON.parse(doctor.stdout);
  assert.equal(report.summary.fail, 0);
  // Every hook the user waits for; not the background checkpoint.
  assert.deepEqual(
    report.latency.map((l: { hook: string }) => l.hook),
    hooksFor(["dispatch"]).filter((h) => !h.async).map((h) => h.hook),
  );
  for (const l of report.latency) {
    assert.equal(l.problem, null, l.hook);
    assert.ok(l.medianMs > 0 && l.floorMs > 0);
  }
  const status = run(rehydrate, ["status", "--json"], { cwd: s.project, env: s.env });
  assert.equal(status.status, 0, status.stderr);
  assert.equal(
    JSON.parse(status.stdout).workflows.find((w: { workflow: string }) => w.workflow === "dispatch").used,
    true,
  );
});

test("rehydrate install --shared leaves invalid JSON untouched with one line on stderr and exit 1", () => {
  const s = sandbox();
  mkdirSync(join(s.project, ".claude"));
  const file = join(s.project, ".claude", "settings.json");
  const bad = readFileSync(join(FIX, "invalid-trailing-comma.json"), "utf8");
  writeFileSync(file, bad);
  const r = run(bin("rehydrate"), ["install", "--shared"], { cwd: s.project, env: s.env });
  assert.equal(r.status, 1);
  assert.equal(r.stderr.trim().split("\n").length, 1);
  assert.equal(readFileSync(file, "utf8"), bad);
});

for (const verb of ["install", "uninstall", "doctor", "status"]) {
  test(`rehydrate ${verb} --help shows usage with examples`, () => {
    const r = run(bin("rehydrate"), [verb, "--help"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Usage: rehydrate ${verb}`));
    assert.match(r.stdout, /Examples:/);
  });
}
