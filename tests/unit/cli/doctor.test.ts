import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliDoctor, type DoctorCheck } from "../../../lib/cli/doctor.ts";
import { cliInstall } from "../../../lib/cli/install.ts";
import { cliValidate } from "../../../lib/cli/validate.ts";
import { VERSION } from "../../../lib/hook/version.ts";
import { sanitizeProjectPath } from "../../../lib/cli/_doctor_files.ts";

const FIX = join(import.meta.dirname!, "..", "..", "fixtures");
const POSIX = process.platform !== "win32";

interface Report {
  checks: DoctorCheck[];
  latency: { hook: string; medianMs: number; floorMs: number; runs: number; problem: string | null }[];
  summary: { pass: number; warn: number; fail: number };
  workflows: string[];
}

/** A temporary home and orchestration project, with a stand-in rehydrate binary that prints the version. */
function setup(): { home: string; project: string; binary: string; state: string; env: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-doctor-test-"));
  const home = join(root, "home");
  const project = join(root, "project");
  const state = join(root, "state");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "projects", "PROJ-001"), { recursive: true });
  writeFileSync(join(project, "projects", "PROJ-001", "ORCHESTRATION.yaml"), "workflow:\n  id: w\n");
  mkdirSync(join(root, "bin"));
  const binary = join(root, "bin", "rehydrate");
  writeFileSync(binary, `#!/bin/sh\nif [ "$1" = --version ]; then echo ${VERSION}; else cat >/dev/null; fi\n`);
  chmodSync(binary, 0o755);
  return {
    home,
    project,
    binary,
    state,
    env: { HOME: home, PATH: process.env.PATH ?? "", REHYDRATE_STATE_DIR: state },
  };
}

function doctor(
  args: string[],
  s: ReturnType<typeof setup>,
  extra: { runs?: number; execPath?: string } = {},
): { code: number; report: Report; err: string } {
  let out = "";
  let err = "";
  // The stand-in binary plays the running one: doctor runs no other binary a project names.
  const code = cliDoctor(["--json", ...args], { out: (t) => void (out += t), err: (t) => void (err += t) }, {
    cwd: s.project,
    homeDir: s.home,
    env: s.env,
    execPath: s.binary,
    ...extra,
  });
  return { code, report: JSON.parse(out), err };
}

function install(s: ReturnType<typeof setup>, args: string[] = []): void {
  const code = cliInstall(["--command", s.binary, ...args], { out() {}, err() {} }, {
    cwd: s.project,
    homeDir: s.home,
    env: s.env,
  });
  assert.equal(code, 0);
}

function lines(report: Report, area: string, status?: string): string[] {
  return report.checks.filter((c) => c.area === area && (status === undefined || c.status === status)).map((c) =>
    c.message
  );
}

describe("cliDoctor()", { skip: !POSIX }, () => {
  test("cliDoctor() warns that rehydrate is off when the project's config says enabled: false", () => {
    const s = setup();
    install(s);
    mkdirSync(join(s.project, ".claude"), { recursive: true });
    writeFileSync(join(s.project, ".claude", "rehydrate.json"), JSON.stringify({ enabled: false }));
    const r = doctor(["--no-latency"], s);
    assert.match(
      lines(r.report, "config", "warn").join("\n"),
      /^rehydrate is off: "enabled": false in .*rehydrate\.json;/m,
    );
  });

  test("cliDoctor() fails when a config value asks for a hook that is not registered, naming the key and its file", () => {
    const s = setup();
    install(s, ["--workflows", "none"]);
    const file = join(s.project, ".claude", "rehydrate.json");
    writeFileSync(file, JSON.stringify({ reread: { enforce: true } }));
    // An install from before: the everyday hooks only, as bfcc99a wrote them for this config.
    const settings = join(s.project, ".claude", "settings.local.json");
    const parsed = JSON.parse(readFileSync(settings, "utf8"));
    delete parsed.hooks.PreToolUse;
    parsed.hooks.Stop = parsed.hooks.Stop.filter((g: { hooks: { command: string }[] }) =>
      !g.hooks.some((h) => h.command.endsWith(" stop"))
    );
    writeFileSync(settings, JSON.stringify(parsed));
    const r = doctor(["--no-latency"], s);
    assert.equal(r.code, 1);
    const fails = lines(r.report, "settings", "fail");
    assert.equal(fails.length, 1, fails.join("\n"));
    assert.ok(fails[0].startsWith(`reread.enforce: true (${file}) asks for `), fails[0]);
    assert.match(fails[0], /PreToolUse:pre-tool-use, Stop:stop are not registered; run rehydrate install$/);
    install(s, ["--workflows", "none"]);
    assert.deepEqual(lines(doctor(["--no-latency"], s).report, "settings", "fail"), []);
  });

  test("cliDoctor() after a broken settings file says to fix it, not to run install", () => {
    const s = setup();
    mkdirSync(join(s.project, ".claude"), { recursive: true });
    writeFileSync(join(s.project, ".claude", "settings.local.json"), "{ broken");
    const fails = lines(doctor(["--no-latency"], s).report, "settings", "fail");
    assert.equal(fails.length, 2, fails.join("\n"));
    assert.match(fails[0], /settings\.local\.json:1:3: .*fix it by hand/);
    assert.match(fails[1], /cannot be checked: fix it first, then run rehydrate doctor again$/);
    assert.doesNotMatch(fails[1], /run rehydrate install/);
  });

  test("cliDoctor() fails when rehydrate is not registered anywhere, and says to run install", () => {
    const s = setup();
    const r = doctor(["--no-latency"], s);
    assert.equal(r.code, 1);
    assert.match(lines(r.report, "settings", "fail")[0], /not registered .*run rehydrate install/);
  });

  test("cliDoctor() passes a fresh install: settings, binary version, config defaults, files, state", () => {
    const s = setup();
    install(s);
    mkdirSync(s.state, { mode: 0o700 });
    const r = doctor(["--no-latency"], s);
    assert.equal(r.code, 0, JSON.stringify(r.report.checks));
    assert.deepEqual(r.report.workflows, ["orchestration"]);
    assert.equal(lines(r.report, "binary", "pass")[0], `${s.binary} ${VERSION}`);
    assert.match(
      lines(r.report, "settings", "pass")[0],
      /PreCompact:pre-compact, SessionStart:session-start, UserPromptSubmit:user-prompt-submit, PostCompact:post-compact, PostToolUse:post-tool-use, Stop:session-checkpoint$/,
    );
    assert.match(lines(r.report, "state", "pass")[0], /\(0700, 0 files/);
    assert.equal(r.report.latency.length, 0);
  });

  test("cliDoctor() reads a shared install: its binary on PATH passes, missing it is a warning, not a failure", () => {
    const s = setup();
    mkdirSync(s.state, { mode: 0o700 });
    install(s, ["--shared"]);
    const missing = doctor(["--no-latency"], s);
    assert.equal(missing.code, 0, JSON.stringify(missing.report.checks));
    assert.match(lines(missing.report, "settings", "pass")[0], /settings\.json: PreCompact:pre-compact, /);
    assert.match(
      lines(missing.report, "binary", "warn")[0],
      /^rehydrate \(from the shared settings\) is not on this machine, so its hooks do nothing here/,
    );
    const onPath = doctor(["--no-latency"], { ...s, env: { ...s.env, PATH: join(s.binary, "..") } });
    assert.equal(onPath.code, 0, JSON.stringify(onPath.report.checks));
    assert.equal(lines(onPath.report, "binary", "pass")[0], `${s.binary} ${VERSION}`);
  });

  test("cliDoctor() fails on settings that point at a binary that is gone", () => {
    const s = setup();
    install(s);
    const file = join(s.project, ".claude", "settings.local.json");
    writeFileSync(file, readFileSync(file, "utf8").replaceAll(s.binary, s.binary + "-gone/rehydrate"));
    const r = doctor(["--no-latency"], s);
    assert.equal(r.code, 1);
    assert.match(
      lines(r.report, "binary", "fail")[0],
      /-gone\/rehydrate \(from ".*pre-compact"\) does not exist; run rehydrate install/,
    );
  });

  test("cliDoctor() warns about hooks the workflows need but are not registered, and about a registration in both scopes", () => {
    const s = setup();
    install(s, ["--workflows", "none"]);
    cliInstall(["--user", "--command", s.binary, "--workflows", "none"], { out() {}, err() {} }, {
      cwd: s.project,
      homeDir: s.home,
      env: s.env,
    });
    const r = doctor(["--no-latency"], s);
    const warns = lines(r.report, "settings", "warn");
    assert.ok(
      warns.some((w) =>
        /registered in local and user settings: they run twice; run rehydrate uninstall --user/.test(w)
      ),
      warns.join("\n"),
    );
    assert.ok(
      warns.some((w) => /needed by orchestration: PostCompact:post-compact, PostToolUse:post-tool-use/.test(w)),
      warns.join("\n"),
    );
  });

  test("cliDoctor() warns about a checkpoint entry that runs in the foreground", () => {
    const s = setup();
    install(s, ["--workflows", "none"]);
    const file = join(s.project, ".claude", "settings.local.json");
    const text = readFileSync(file, "utf8");
    assert.match(text, /"async": true/);
    const foreground = () =>
      lines(doctor(["--no-latency"], s).report, "settings", "warn").filter((w) => w.includes("foreground"));
    assert.deepEqual(foreground(), []);
    writeFileSync(file, text.replace(/,\s*"async": true/, ""));
    assert.deepEqual(foreground(), [
      'Stop:session-checkpoint runs in the foreground, so every turn waits for it: it needs "async": true; run rehydrate install',
    ]);
  });

  test("cliDoctor() reports unknown config keys and wrong types as validate does: FILE:LINE: FIELD: MESSAGE", () => {
    const s = setup();
    install(s);
    writeFileSync(
      join(s.project, ".claude", "rehydrate.json"),
      JSON.stringify({ budget: { maxChars: "lots" }, colour: "blue" }),
    );
    const r = doctor(["--no-latency"], s);
    const warns = lines(r.report, "config", "warn");
    assert.ok(
      warns.some((w) => w.endsWith("rehydrate.json:1: budget.maxChars: Expected integer, got string")),
      warns.join("\n"),
    );
    assert.ok(warns.some((w) => w.endsWith("rehydrate.json:1: colour: Unknown key colour")), warns.join("\n"));
    // The same lines from rehydrate validate, for the same file.
    let out = "";
    cliValidate([join(s.project, ".claude", "rehydrate.json")], { out: (t) => void (out += t), err() {} }, {
      cwd: s.project,
      homeDir: s.home,
      env: s.env,
    });
    assert.deepEqual(out.trim().split("\n").sort(), warns.filter((w) => w.includes("rehydrate.json:")).sort());
    writeFileSync(join(s.project, ".claude", "rehydrate.json"), "{ nope");
    const bad = doctor(["--no-latency"], s);
    assert.equal(bad.code, 1);
    assert.equal(lines(bad.report, "config", "fail").length, 1);
  });

  test("cliDoctor() validates checkpoints: a valid one passes, an invalid one fails with its file and line", () => {
    const s = setup();
    install(s);
    const dir = join(s.project, ".jerry", "checkpoints");
    mkdirSync(dir, { recursive: true });
    copyFileSync(
      join(FIX, "schemas", "valid", "checkpoint.v1", "design-note-003.json"),
      join(dir, "cx-001-checkpoint.json"),
    );
    assert.match(
      lines(doctor(["--no-latency"], s).report, "files", "pass")[0],
      /^1 manifests, checkpoints and state files valid/,
    );
    copyFileSync(
      join(FIX, "schemas", "invalid", "checkpoint.v1", "bad-id-trigger-ack.json"),
      join(dir, "cx-002-checkpoint.json"),
    );
    const r = doctor(["--no-latency"], s);
    assert.equal(r.code, 1);
    const fails = lines(r.report, "files", "fail");
    assert.ok(fails.length >= 1);
    for (const f of fails) assert.match(f, /cx-002-checkpoint\.json:\d+: /);
  });

  test("cliDoctor() fails a state directory others can read, and files in it with loose modes", () => {
    const s = setup();
    install(s);
    mkdirSync(join(s.state, "markers"), { recursive: true });
    chmodSync(s.state, 0o755);
    chmodSync(join(s.state, "markers"), 0o700);
    writeFileSync(join(s.state, "markers", "x.json"), "{}", { mode: 0o644 });
    chmodSync(join(s.state, "markers", "x.json"), 0o644);
    const r = doctor(["--no-latency"], s);
    assert.equal(r.code, 1);
    const fails = lines(r.report, "state", "fail");
    assert.match(fails[0], /has mode 0755; run chmod 700 /);
    assert.match(fails[1], /1 entries readable by others, e\.g\. .*x\.json \(0644\)/);
  });

  test("cliDoctor() finds the newest transcript of the project under its sanitised directory name", () => {
    const s = setup();
    install(s);
    const dir = join(s.home, ".claude", "projects", sanitizeProjectPath(s.project));
    mkdirSync(dir, { recursive: true });
    const old = join(dir, "old.jsonl");
    const fresh = join(dir, "new.jsonl");
    writeFileSync(fresh, "{}\n");
    writeFileSync(old, "{}\n");
    utimesSync(old, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const r = doctor(["--no-latency"], s);
    assert.match(lines(r.report, "transcript", "pass")[0], /new\.jsonl readable/);
    assert.equal(sanitizeProjectPath("/home/a b/proj.x"), "-home-a-b-proj-x");
  });

  test("cliDoctor() times each installed hook against the binary's floor and reports medians (not the background one)", () => {
    const s = setup();
    install(s, ["--workflows", "dispatch"]);
    const r = doctor([], s, { runs: 1 });
    assert.deepEqual(r.report.latency.map((l) => l.hook), [
      "pre-compact",
      "session-start",
      "user-prompt-submit",
      "pre-tool-use",
      "post-tool-use",
      "stop",
    ]);
    for (const l of r.report.latency) {
      assert.ok(Number.isFinite(l.medianMs) && l.medianMs > 0);
      assert.ok(Number.isFinite(l.floorMs) && l.floorMs > 0);
      assert.equal(l.runs, 1);
      assert.equal(l.problem, null);
    }
    assert.equal(lines(r.report, "latency").length, 6);
    assert.match(lines(r.report, "latency")[0], /^pre-compact: [\d.]+ ms median \(floor [\d.]+ ms, [\d.]+x, 1 runs\)$/);
  });

  test("cliDoctor() reports a hook that exits 0 but says on stderr that its code did not load", () => {
    const s = setup();
    install(s, ["--workflows", "dispatch"]);
    writeFileSync(
      s.binary,
      `#!/bin/sh\nif [ "$1" = --version ]; then echo ${VERSION}; elif [ "$1" = stop ]; then cat >/dev/null; echo "rehydrate: cannot load ./stop.ts: the hook did nothing" >&2; else cat >/dev/null; fi\n`,
    );
    const r = doctor([], s, { runs: 1 });
    const stop = r.report.latency.find((l) => l.hook === "stop");
    assert.equal(stop?.problem, "stderr: rehydrate: cannot load ./stop.ts: the hook did nothing");
    assert.equal(r.report.latency.filter((l) => l.problem !== null).length, 1);
    assert.match(lines(r.report, "latency", "warn").join("\n"), /stop: .*cannot load \.\/stop\.ts/);
  });

  test("cliDoctor() prints a readable list and answers --help, and a bad option is a line and a hint with exit 2", () => {
    const s = setup();
    install(s);
    let out = "";
    const code = cliDoctor(["--no-latency"], { out: (t) => void (out += t), err() {} }, {
      cwd: s.project,
      homeDir: s.home,
      env: s.env,
    });
    assert.equal(code, 0);
    assert.match(out, /^pass {2}settings {4}/m);
    assert.match(out, /^\d+ passed, \d+ warnings, 0 failed$/m);
    let help = "";
    assert.equal(cliDoctor(["--help"], { out: (t) => void (help += t), err() {} }), 0);
    assert.match(help, /Examples:\n {2}rehydrate doctor/);
    let err = "";
    assert.equal(cliDoctor(["--bogus"], { out() {}, err: (t) => void (err += t) }), 2);
    assert.equal(err, "rehydrate doctor: unknown option --bogus\nTry 'rehydrate doctor --help'.\n");
  });
});
