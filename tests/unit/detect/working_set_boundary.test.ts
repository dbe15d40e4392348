// Issue #22, finding V6 (rule 2): text naming a file outside the project (`../.npmrc` in a tool's
// output) never makes it a project file. The working set keeps outside files only when the agent's
// own tool call read or edited them, and no re-read list ever names an outside file.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workingSet } from "../../../lib/detect/working_set.ts";
import { projectBoundary } from "../../../lib/detect/project_boundary.ts";
import { projectPreCompact } from "../../../lib/projects/pre_compact.ts";
import { sessionPreCompact } from "../../../lib/session/pre_compact.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";
import { payload, ROOT, run } from "../_reread_harness.ts";

const SID = "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf";
const SCRATCH = mkdtempSync(join(tmpdir(), "rehydrate-boundary-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

function call(id: string, name: string, input: Record<string, unknown>, cwd: string): TranscriptRow {
  return {
    type: "assistant",
    sessionId: SID,
    cwd,
    message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] },
  };
}

function result(id: string, content: string, cwd: string): TranscriptRow {
  return {
    type: "user",
    sessionId: SID,
    cwd,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content }] },
  };
}

/** Oldest first: the agent reads and edits notes outside the project; a test run's output names `../.npmrc` and `/etc/passwd`. */
function session(project: string, notes: string): TranscriptRow[] {
  return [
    { type: "user", sessionId: SID, cwd: project, message: { role: "user", content: "fix the test in src/app.ts" } },
    call("t1", "Read", { file_path: join(project, "src", "app.ts") }, project),
    result("t1", "export const x = 1;", project),
    call("t2", "Read", { file_path: notes }, project),
    result("t2", "my notes", project),
    call("t3", "Edit", { file_path: notes, old_string: "a", new_string: "b" }, project),
    result("t3", "ok", project),
    call("t4", "Edit", { file_path: join(project, "src", "app.ts"), old_string: "1", new_string: "2" }, project),
    result("t4", "ok", project),
    call("t5", "Bash", { command: "npm test" }, project),
    result("t5", "FAIL: cannot read token, see ../.npmrc\nand /etc/passwd, ../.npmrc\n", project),
    {
      type: "assistant",
      sessionId: SID,
      cwd: project,
      message: { role: "assistant", content: [{ type: "text", text: "The test wants ../.npmrc; next: src/app.ts" }] },
    },
  ];
}

const newestFirst = (rows: TranscriptRow[]) => [...rows].reverse();
const named = (paths: readonly string[], what: string) => paths.some((p) => p.includes(what));

describe("the working set and the project boundary", () => {
  test("workingSet() drops files outside the project only named, keeps the one the agent read, marked touched", () => {
    const project = "/home/x/app";
    const items = workingSet(newestFirst(session(project, "/home/x/notes.md")), { projectDir: project, minShare: 0 });
    const paths = items.map((i) => i.path);
    assert.ok(!named(paths, ".npmrc"), paths.join(", "));
    assert.ok(!named(paths, "passwd"), paths.join(", "));
    assert.deepEqual(items.find((i) => i.path === "/home/x/notes.md")?.touched, true);
    assert.deepEqual(items.find((i) => i.path === "src/app.ts")?.touched, true);
  });

  test("workingSet() without a project keeps every file (the recorded sessions of the scorer)", () => {
    const items = workingSet(newestFirst(session("/home/x/app", "/home/x/notes.md")), { minShare: 0 });
    const npmrc = items.find((i) => i.path === "/home/x/.npmrc");
    assert.equal(npmrc?.touched, false);
  });

  test("workingSet() keeps a mention inside the project, untouched", () => {
    const project = "/home/x/app";
    const rows = [
      ...session(project, "/home/x/notes.md"),
      call("t6", "Bash", { command: "npm run lint" }, project),
      result("t6", "warning in lib/util.ts\n", project),
    ];
    const items = workingSet(newestFirst(rows), { projectDir: project, minShare: 0 });
    assert.equal(items.find((i) => i.path === "lib/util.ts")?.touched, false);
  });

  test("workingSet() drops a named file inside the project folder that a link leads out of", () => {
    const base = join(SCRATCH, "link");
    const project = join(base, "app");
    mkdirSync(join(project, "src"), { recursive: true });
    mkdirSync(join(base, "secret"), { recursive: true });
    writeFileSync(join(base, "secret", "token.md"), "x");
    writeFileSync(join(project, "src", "kept.md"), "x");
    symlinkSync(join(base, "secret"), join(project, "out"));
    const rows = [
      call("b1", "Bash", { command: "ls" }, project),
      result("b1", "see out/token.md and src/kept.md\n", project),
    ];
    const paths = workingSet(newestFirst(rows), { projectDir: project, minShare: 0 }).map((i) => i.path);
    assert.ok(!named(paths, "token.md"), paths.join(", "));
    assert.ok(paths.includes("src/kept.md"), paths.join(", "));
    const boundary = projectBoundary(project);
    assert.equal(boundary.inside("out/token.md"), true, "inside by its text");
    assert.equal(boundary.resolvesInside("out/token.md"), false, "outside by its real path");
    assert.equal(boundary.resolvesInside("out/missing/new.md"), false, "a file not written yet, under the link");
    assert.equal(boundary.resolvesInside("src/new.md"), true);
    assert.equal(boundary.inside("../.npmrc"), false);
    assert.equal(boundary.inside("~/.npmrc"), false);
  });
});

describe("re-read lists name project files only", () => {
  /** A home with notes and a .npmrc, a projects workspace in it, and this session's transcript. */
  function world(name: string): { project: string; notes: string; transcript: string; env: Record<string, string> } {
    const home = join(SCRATCH, name, "home");
    const project = join(home, "work");
    cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
    mkdirSync(join(project, "src"), { recursive: true });
    writeFileSync(join(project, "src", "app.ts"), "export const x = 2;\n");
    const notes = join(home, "notes.md");
    writeFileSync(notes, "notes\n");
    writeFileSync(join(home, ".npmrc"), "registry=x\n");
    const transcript = join(SCRATCH, name, `${SID}.jsonl`);
    writeFileSync(transcript, session(project, notes).map((r) => JSON.stringify(r)).join("\n") + "\n");
    const env = { HOME: home, CLAUDE_PROJECT_DIR: project, REHYDRATE_STATE_DIR: join(SCRATCH, name, "state") };
    return { project, notes, transcript, env };
  }

  test("projectPreCompact() keeps the outside file the agent read in the working set, never in rereadFiles", async () => {
    const w = world("project");
    const stdin = payload("PreCompact-auto.json", { session_id: SID, transcript_path: w.transcript, cwd: w.project });
    const { value } = await run("PreCompact", (ctx) => projectPreCompact(ctx, { compactionId: "cx-1" }), stdin, w.env);
    assert.ok(value);
    const ws = (value.state.working_set as { path: string }[]).map((i) => i.path);
    assert.ok(ws.includes(w.notes), ws.join(", "));
    assert.ok(!named(ws, ".npmrc") && !named(ws, "passwd"), ws.join(", "));
    assert.ok(value.rereadFiles.includes(join(w.project, "src", "app.ts")), value.rereadFiles.join(", "));
    assert.ok(!named(value.rereadFiles, "notes.md"), value.rereadFiles.join(", "));
    assert.ok(!named(value.rereadFiles, ".npmrc"), value.rereadFiles.join(", "));
    assert.ok(!value.summaryInstructions.includes(".npmrc"), value.summaryInstructions);
  });

  test("sessionPreCompact() re-reads the edited files inside the project, not the outside one it edited", async () => {
    const w = world("session");
    const stdin = payload("PreCompact-auto.json", { session_id: SID, transcript_path: w.transcript, cwd: w.project });
    const { value } = await run("PreCompact", (ctx) => sessionPreCompact(ctx), stdin, w.env);
    assert.ok(value);
    assert.deepEqual(value.rereadFiles, ["src/app.ts"]);
    const ws = value.snapshot.working_set.map((i) => i.path);
    assert.ok(!named(ws, ".npmrc") && !named(ws, "passwd"), ws.join(", "));
    // The failing command's own output may name it (quoted as its result); no file list does.
    const files = value.summaryInstructions.split("\n").filter((l) => l.includes("files"));
    assert.ok(!files.some((l) => l.includes(".npmrc")), value.summaryInstructions);
  });
});
