// The background Stop hook as Claude Code runs it: silent, and, when the client ends it with
// SIGTERM (print mode ends the background hooks still running when the session ends), it still
// finishes the checkpoint instead of dying with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, run } from "./_bin.ts";

const SID = "3b9e4d2a-7c1f-4e8b-a6d5-2f0c9b8e7a61";

function sandbox() {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-checkpoint-bin-"));
  const project = join(root, "app");
  const transcript = join(root, "t.jsonl");
  const row = (type: string, n: number, message: unknown) =>
    JSON.stringify({
      parentUuid: null,
      isSidechain: false,
      cwd: project,
      sessionId: SID,
      type,
      uuid: `00000000-0000-4000-8000-00000000000${n}`,
      timestamp: `2026-11-26T12:00:0${n}.000Z`,
      message,
    });
  writeFileSync(
    transcript,
    [
      row("user", 1, { role: "user", content: "Fix the rounding in src/format.js" }),
      row("assistant", 2, {
        role: "assistant",
        id: "msg_1",
        content: [{
          type: "tool_use",
          id: "toolu_1",
          name: "TaskCreate",
          input: { subject: "Fix rounding", description: "", activeForm: "Fixing" },
        }],
      }),
      row("user", 3, {
        role: "user",
        content: [{
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: "Task #1 created successfully: Fix rounding",
        }],
      }),
      row("assistant", 4, { role: "assistant", id: "msg_2", content: [{ type: "text", text: "Planned." }] }),
    ].join("\n") + "\n",
  );
  const state = join(root, "state");
  const env = {
    PATH: process.env.PATH,
    HOME: join(root, "home"),
    REHYDRATE_STATE_DIR: state,
    CLAUDE_PROJECT_DIR: project,
  };
  const stdin = JSON.stringify({
    session_id: SID,
    transcript_path: transcript,
    cwd: project,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: "Planned.",
  });
  const checkpoint = join(state, "sessions", `${SID}.checkpoint.json`);
  return { env, stdin, checkpoint };
}

const WAYS: [string, string[]][] = [
  ["dist/session-checkpoint", []],
  ["rehydrate session-checkpoint", ["session-checkpoint"]],
];

for (const [label, argv] of WAYS) {
  const program = () => bin(argv.length === 0 ? "session-checkpoint" : "rehydrate");

  test(`${label} saves the checkpoint and prints nothing`, () => {
    const s = sandbox();
    const r = run(program(), argv, { stdin: s.stdin, env: s.env });
    assert.deepEqual([r.status, r.stdout], [0, ""]);
    const saved = JSON.parse(readFileSync(s.checkpoint, "utf8"));
    assert.equal(saved.built_by, "checkpoint");
    assert.deepEqual(saved.tasks.map((t: { subject: string }) => t.subject), ["Fix rounding"]);
  });

  test(`${label} ended with SIGTERM still finishes the checkpoint, exits 0 and prints nothing`, async () => {
    const s = sandbox();
    // The signal comes while the hook waits for its stdin, so it lands before the work, every time.
    const child = spawn(program(), argv, { env: s.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d) => stdout += d);
    child.stdin.on("error", () => {}); // a hook that died closed it
    const closed = new Promise<[number | null, string | null]>((resolve) =>
      child.on("close", (c, sig) => resolve([c, sig]))
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.stdin.end(s.stdin);
    const [code, signal] = await closed;
    assert.deepEqual([code, signal, stdout], [0, null, ""]);
    assert.ok(existsSync(s.checkpoint), "the checkpoint was written");
  });
}
