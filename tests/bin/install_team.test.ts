// A team-safe install, checked on the compiled binary: the default install stays on this machine
// (.claude/settings.local.json); `install --shared` writes .claude/settings.json with commands that
// run for a teammate who has the binary and stay silent (exit 0, no output) for one who has not,
// run exactly as Claude Code runs them (`sh -c "<command>"`, CLAUDE_PROJECT_DIR set, the event's
// JSON on stdin); a reinstall keeps the workflows; three backups at most; uninstall leaves nothing
// it created.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, DIST, EXE, FIXTURES, ROOT, run } from "./_bin.ts";
import { hooksFor } from "../../lib/cli/_install_plan.ts";

const posix = process.platform !== "win32";

/** The captured input of each event, for the hook commands run by hand (else the newest client's capture). */
const INPUT: Record<string, string> = {
  PreCompact: "PreCompact-manual.json",
  SessionStart: "SessionStart-startup.json",
  UserPromptSubmit: "UserPromptSubmit.json",
  PreToolUse: "PreToolUse-Read.json",
  PostToolUse: "PostToolUse-Read.json",
  Stop: "Stop.json",
  PostCompact: "PostCompact-manual.json",
};

function sandbox(): { root: string; home: string; project: string; env: Record<string, string | undefined> } {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-install-team-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "src", "a.js"), "export const a = 1;\n");
  return { root, home, project, env: { PATH: process.env.PATH, HOME: home, REHYDRATE_STATE_DIR: join(root, "state") } };
}

/** Every hook command of a settings file, with its event. */
function commands(file: string): { event: string; command: string }[] {
  const hooks = JSON.parse(readFileSync(file, "utf8")).hooks as Record<
    string,
    { hooks: { command: string }[] }[]
  >;
  return Object.entries(hooks).flatMap(([event, groups]) =>
    groups.flatMap((g) => g.hooks.map((h) => ({ event, command: h.command })))
  );
}

/** Runs a hook command the way Claude Code does: through sh, in the project, with the event's JSON on stdin. */
function runAsClaudeCode(
  command: string,
  event: string,
  project: string,
  env: Record<string, string | undefined>,
): { status: number | null; stdout: string; stderr: string } {
  const newest = join(ROOT, "tests", "fixtures", "claude-code-2.1.332", "hook-inputs");
  const file = INPUT[event]
    ? join(FIXTURES, "hook-inputs", INPUT[event])
    : join(newest, readdirSync(newest).find((n) => n.startsWith(`${event}-`) || n === `${event}.json`) ?? "");
  const input = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : { hook_event_name: event };
  const payload = { ...input, cwd: project, transcript_path: join(project, "none.jsonl") };
  const r = spawnSync("sh", ["-c", command], {
    input: JSON.stringify(payload),
    cwd: project,
    env: { ...env, CLAUDE_PROJECT_DIR: project } as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** A PATH with sh and the usual tools but no rehydrate. */
const BARE_PATH = "/usr/bin:/bin";

test("rehydrate install writes .claude/settings.local.json by default and leaves settings.json alone", () => {
  const s = sandbox();
  const r = run(bin("rehydrate"), ["install"], { cwd: s.project, env: s.env });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(readdirSync(join(s.project, ".claude")), ["settings.local.json"]);
  assert.match(r.stdout, /Installed in .*settings\.local\.json/);
});

test("rehydrate install --shared writes settings.json with no path of this machine in its commands", () => {
  const s = sandbox();
  const r = run(bin("rehydrate"), ["install", "--shared", "--workflows", "dispatch"], { cwd: s.project, env: s.env });
  assert.equal(r.status, 0, r.stderr);
  const file = join(s.project, ".claude", "settings.json");
  const list = commands(file);
  assert.equal(list.length, hooksFor(["dispatch"]).length);
  for (const { command } of list) {
    assert.ok(!command.includes(s.root) && !command.includes(DIST) && !/(^|\s)\//.test(command), command);
    assert.match(command, /^command -v rehydrate >\/dev\/null 2>&1 \|\| exit 0; exec rehydrate [a-z-]+$/);
  }
  assert.ok(!existsSync(join(s.project, ".claude", "settings.local.json")));
});

test("a teammate's checkout of a shared install: silent without the binary, working with it on PATH", {
  skip: !posix,
}, () => {
  const s = sandbox();
  assert.equal(
    run(bin("rehydrate"), ["install", "--shared", "--workflows", "orchestration,dispatch"], {
      cwd: s.project,
      env: s.env,
    }).status,
    0,
  );
  const mate = join(s.root, "teammate", "checkout");
  cpSync(s.project, mate, { recursive: true });
  const state = join(s.root, "teammate", "state");
  const env = { PATH: BARE_PATH, HOME: join(s.root, "teammate"), REHYDRATE_STATE_DIR: state };
  const list = commands(join(mate, ".claude", "settings.json"));
  assert.equal(list.length, hooksFor(["orchestration", "dispatch"]).length);
  for (const { event, command } of list) {
    const r = runAsClaudeCode(command, event, mate, env);
    assert.deepEqual([r.status, r.stdout, r.stderr], [0, "", ""], `${event}: ${command}`);
  }
  assert.ok(!existsSync(state), "nothing ran");

  const binDir = join(s.root, "teammate", "bin");
  mkdirSync(binDir);
  symlinkSync(bin("rehydrate"), join(binDir, "rehydrate" + EXE));
  const withIt = { ...env, PATH: `${binDir}:${BARE_PATH}` };
  for (const { event, command } of list) {
    const r = runAsClaudeCode(command, event, mate, withIt);
    assert.equal(r.status, 0, `${event}: ${r.stderr}`);
    assert.equal(r.stderr, "", event);
  }
  assert.ok(existsSync(state) && readdirSync(state).length > 0, "the hooks ran and kept their state");
  // The command runs the hook itself: its --version answers through the same guard.
  const version = spawnSync("sh", ["-c", list[0].command.replace(/ [a-z-]+$/, " --version")], {
    env: withIt as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  assert.equal(version.stdout.trim(), run(bin("rehydrate"), ["--version"]).stdout.trim());
});

test("a shared install of a binary inside the project runs it through $CLAUDE_PROJECT_DIR, silent once it is gone", {
  skip: !posix,
}, () => {
  const s = sandbox();
  mkdirSync(join(s.project, "tools"));
  copyFileSync(bin("rehydrate"), join(s.project, "tools", "rehydrate"));
  const r = run(bin("rehydrate"), ["install", "--shared", "--command", "tools/rehydrate"], {
    cwd: s.project,
    env: s.env,
  });
  assert.equal(r.status, 0, r.stderr);
  const mate = join(s.root, "elsewhere");
  cpSync(s.project, mate, { recursive: true });
  const state = join(s.root, "mate-state");
  const env = { PATH: BARE_PATH, HOME: s.home, REHYDRATE_STATE_DIR: state };
  const list = commands(join(mate, ".claude", "settings.json"));
  for (const { command } of list) assert.match(command, /^\[ -x "\$CLAUDE_PROJECT_DIR"\/tools\/rehydrate \]/);
  for (const { event, command } of list) assert.equal(runAsClaudeCode(command, event, mate, env).status, 0);
  assert.ok(existsSync(state) && readdirSync(state).length > 0, "the project's binary ran");
  rmSync(join(mate, "tools"), { recursive: true });
  rmSync(state, { recursive: true });
  for (const { event, command } of list) {
    const r2 = runAsClaudeCode(command, event, mate, env);
    assert.deepEqual([r2.status, r2.stdout, r2.stderr], [0, "", ""], event);
  }
  assert.ok(!existsSync(state));
});

test("rehydrate install again without --workflows keeps the workflows of the first install", () => {
  const s = sandbox();
  const rehydrate = bin("rehydrate");
  assert.equal(run(rehydrate, ["install", "--workflows", "dispatch"], { cwd: s.project, env: s.env }).status, 0);
  const file = join(s.project, ".claude", "settings.local.json");
  const before = readFileSync(file, "utf8");
  const again = run(rehydrate, ["install"], { cwd: s.project, env: s.env });
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /dispatch \(installed before/);
  assert.equal(readFileSync(file, "utf8"), before);
  assert.deepEqual(
    Object.keys(JSON.parse(before).hooks).sort(),
    [...new Set(hooksFor(["dispatch"]).map((h) => h.event))].sort(),
  );
  assert.ok(JSON.parse(before).hooks.PreToolUse, "the dispatch enforcement is still there");
});

test("five installs that each change the file leave at most 3 backups, and uninstall leaves nothing it created", () => {
  const s = sandbox();
  const rehydrate = bin("rehydrate");
  for (const w of ["dispatch", "orchestration", "none", "dispatch", "orchestration"]) {
    const r = run(rehydrate, ["install", "--workflows", w], { cwd: s.project, env: s.env });
    assert.equal(r.status, 0, r.stderr);
  }
  const names = readdirSync(join(s.project, ".claude"));
  const backups = names.filter((n) => n.includes(".bak-"));
  assert.equal(backups.length, 3, names.join(", "));
  assert.equal(run(rehydrate, ["install", "--shared"], { cwd: s.project, env: s.env }).status, 0);
  const un = run(rehydrate, ["uninstall"], { cwd: s.project, env: s.env });
  assert.equal(un.status, 0, un.stderr);
  assert.equal(existsSync(join(s.project, ".claude")), false, un.stdout);
});
