// The worker launcher of examples/worker (docs/dispatch.md, "Launching a worker"): it records the
// dispatch file the way rehydrate reads it, and rehydrate's own reader (sessionRole) agrees.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleHook } from "../../lib/hook/handle_hook.ts";
import { type SessionRole, sessionRole } from "../../lib/dispatch/session_role.ts";
import { ROOT } from "./_bin.ts";

const SCRIPT = join(ROOT, "examples", "worker", "launch-worker.sh");
const EXAMPLE = join(ROOT, "examples", "worker", "dispatch-task-42.md");
const PRE_TOOL_USE = join(ROOT, "tests", "fixtures", "claude-code-2.1.197", "hook-inputs", "PreToolUse-Read.json");

/** A temporary world: a HOME, a project with a dispatch file, and a stub claude that prints what it got. */
function world() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rehydrate-launcher-")));
  const home = join(root, "home");
  const project = join(root, "project");
  const state = join(root, "state");
  mkdirSync(home);
  mkdirSync(join(project, "tickets"), { recursive: true });
  const dispatch = join(project, "tickets", "task-42.md");
  writeFileSync(dispatch, readFileSync(EXAMPLE, "utf8"));
  const stub = join(root, "claude-stub");
  writeFileSync(
    stub,
    '#!/bin/sh\nfor a in "$@"; do printf \'arg:%s\\n\' "$a"; done\nprintf \'env:%s\\n\' "${REHYDRATE_DISPATCH_FILE-unset}"\n',
    { mode: 0o755 },
  );
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CLAUDE_BIN: stub };
  const launch = (args: string[], extra: Record<string, string> = {}) => {
    const r = spawnSync("sh", [SCRIPT, ...args], {
      cwd: project,
      env: { ...env, ...extra },
      encoding: "utf8",
      timeout: 20_000,
    });
    return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
  };
  return { root, home, project, state, dispatch, launch };
}

/** What rehydrate's hooks make of a session started with `env`, read by `sessionRole` as PreToolUse would. */
function roleFor(env: Record<string, string>, project: string): SessionRole | undefined {
  let role: SessionRole | undefined;
  const input = { ...JSON.parse(readFileSync(PRE_TOOL_USE, "utf8")), cwd: project };
  handleHook(
    "PreToolUse",
    (ctx) => {
      role = sessionRole(ctx);
      return null;
    },
    JSON.stringify(input),
    { env: { ...env, CLAUDE_PROJECT_DIR: project } },
  );
  return role;
}

const PATH_FILE = [".claude", "worker-dispatch-path"];

describe("examples/worker/launch-worker.sh", () => {
  test("is executable and plain POSIX sh", () => {
    assert.ok((statSync(SCRIPT).mode & 0o111) !== 0, "executable");
    const text = readFileSync(SCRIPT, "utf8");
    assert.match(text, /^#!\/bin\/sh\n/);
    assert.match(text, /^set -eu$/m);
    const syntax = spawnSync("sh", ["-n", SCRIPT], { encoding: "utf8" });
    assert.equal(syntax.status, 0, syntax.stderr);
  });

  test("records the absolute dispatch path, mode 0600, exports it and passes the default prompt", () => {
    const w = world();
    const r = w.launch(["tickets/task-42.md"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    const pathFile = join(w.home, ...PATH_FILE);
    assert.equal(readFileSync(pathFile, "utf8").split("\n")[0], w.dispatch);
    assert.equal(statSync(pathFile).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(w.home, ".claude")), ["worker-dispatch-path"], "no temporary file left");
    const lines = r.stdout.trimEnd().split("\n");
    assert.deepEqual(lines, [
      `arg:Read ${w.dispatch} and carry out the dispatch; record progress under ## Progress.`,
      `env:${w.dispatch}`,
    ]);
  });

  test("passes the claude args as given, and replaces an older path file", () => {
    const w = world();
    mkdirSync(join(w.home, ".claude"));
    writeFileSync(join(w.home, ...PATH_FILE), "/old/dispatch.md\n", { mode: 0o644 });
    const r = w.launch([w.dispatch, "--model", "opus", "-p", "go on, two words"]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split("\n"), [
      "arg:--model",
      "arg:opus",
      "arg:-p",
      "arg:go on, two words",
      `env:${w.dispatch}`,
    ]);
    assert.equal(readFileSync(join(w.home, ...PATH_FILE), "utf8"), w.dispatch + "\n");
    assert.equal(statSync(join(w.home, ...PATH_FILE)).mode & 0o777, 0o600);
  });

  test("REHYDRATE_DISPATCH_PATH_FILE names another path file", () => {
    const w = world();
    const other = join(w.root, "elsewhere", "dp");
    const r = w.launch(["tickets/task-42.md"], { REHYDRATE_DISPATCH_PATH_FILE: other });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(other, "utf8"), w.dispatch + "\n");
    assert.equal(existsSync(join(w.home, ...PATH_FILE)), false);
  });

  test("a missing or non-regular dispatch file, or none, is refused with one line and exit 2", () => {
    const w = world();
    for (const args of [["tickets/nope.md"], ["tickets"], []]) {
      const r = w.launch(args);
      assert.equal(r.status, 2, `${args}: exit ${r.status}`);
      assert.equal(r.stdout, "", "claude is not started");
      assert.equal(r.stderr.split("\n").filter((l) => l !== "").length, 1, r.stderr);
      assert.match(r.stderr, args.length ? /not a regular file: tickets/ : /^usage: /);
    }
    assert.equal(existsSync(join(w.home, ".claude")), false, "nothing recorded");
  });

  test("rehydrate's reader agrees: the path file alone, and the exported variable, make a worker on that file", () => {
    const w = world();
    const r = w.launch(["tickets/task-42.md"]);
    assert.equal(r.status, 0, r.stderr);
    const base = { HOME: w.home, REHYDRATE_STATE_DIR: w.state };
    assert.deepEqual(roleFor(base, w.project), { role: "worker", dispatchFile: w.dispatch }, "from the path file");
    const exported = r.stdout.split("\n").find((l) => l.startsWith("env:"))!.slice(4);
    assert.deepEqual(
      roleFor({ ...base, REHYDRATE_DISPATCH_FILE: exported }, join(w.root, "home")),
      { role: "worker", dispatchFile: w.dispatch },
      "from the variable, whatever the project directory",
    );
    assert.deepEqual(roleFor({ ...base, HOME: join(w.root, "other-home") }, w.project), { role: "regular" });
  });

  test("with REHYDRATE_DISPATCH_PATH_FILE and dispatch.dispatchPathFile set alike, the reader agrees too", () => {
    const w = world();
    const other = join(w.root, "elsewhere", "dp");
    mkdirSync(join(w.home, ".claude"));
    writeFileSync(join(w.home, ".claude", "rehydrate.json"), JSON.stringify({ dispatch: { dispatchPathFile: other } }));
    const r = w.launch(["tickets/task-42.md"], { REHYDRATE_DISPATCH_PATH_FILE: other });
    assert.equal(r.status, 0, r.stderr);
    const env = { HOME: w.home, REHYDRATE_STATE_DIR: w.state };
    assert.deepEqual(roleFor(env, w.project), { role: "worker", dispatchFile: w.dispatch });
  });
});
