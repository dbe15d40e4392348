// The smoke tests of the dispatch workflow (docs/dispatch.md), against the compiled binaries: the handler chain (register,
// PreCompact, PreToolUse denies once, then silent, Stop failsafe, then silent), the worker chain
// (the dispatch file is named; a Read of it passes) and a regular session (silent throughout).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, FIXTURES, ROOT, run } from "./_bin.ts";

const SID = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
const DISPATCH = join(ROOT, "tests", "fixtures", "dispatch");

function sandbox(): {
  project: string;
  env: Record<string, string | undefined>;
  call(hook: string, file: string, patch?: Record<string, unknown>): string;
} {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-reread-"));
  const project = join(tmp, "project");
  cpSync(join(DISPATCH, "project"), project, { recursive: true });
  cpSync(join(DISPATCH, "elsewhere"), join(tmp, "elsewhere"), { recursive: true });
  const home = join(tmp, "home");
  mkdirSync(home);
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(tmp, "state"),
  };
  return {
    project,
    env,
    call(hook, file, patch = {}) {
      const input = {
        ...JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", file), "utf8")),
        session_id: SID,
        transcript_path: "",
        cwd: project,
        ...patch,
      };
      const r = run(bin(hook), [], { stdin: JSON.stringify(input), env, cwd: project });
      assert.equal(r.status, 0, `${hook}: exit ${r.status} ${r.stderr}`);
      return r.stdout;
    },
  };
}

const bash = { tool_name: "Bash", tool_input: { command: "git status" } };

describe("dispatch sessions (handler and worker) on the binaries", () => {
  test("handler chain: register, compact, the first tool call is denied once, the second passes", () => {
    const s = sandbox();
    assert.equal(
      s.call("post-tool-use", "PostToolUse-Read.json", {
        tool_name: "Skill",
        tool_input: { skill: "handler" },
        tool_response: { success: true },
      }),
      "",
    );
    assert.equal(
      s.call("pre-compact", "PreCompact-auto.json"),
      "",
      "nothing for the summarizer from a handler session",
    );
    const denied = JSON.parse(s.call("pre-tool-use", "PreToolUse-Read.json", bash));
    assert.equal(denied.hookSpecificOutput.permissionDecision, "deny");
    const reason: string = denied.hookSpecificOutput.permissionDecisionReason;
    assert.ok(reason.includes(join(s.project, "handler-state.md")), reason);
    assert.ok(reason.includes(join(s.project, "docs", "handler-dispatches", "fix-login.md")), reason);
    assert.equal(s.call("pre-tool-use", "PreToolUse-Read.json", bash), "");
  });

  test("handler chain: with no tool call, Stop blocks once, then is silent", () => {
    const s = sandbox();
    s.call("post-tool-use", "PostToolUse-Read.json", {
      tool_name: "Skill",
      tool_input: { skill: "handler" },
      tool_response: { success: true },
    });
    s.call("pre-compact", "PreCompact-manual.json");
    assert.equal(s.call("stop", "Stop.json", { stop_hook_active: true }), "", "the loop breaker");
    const blocked = JSON.parse(s.call("stop", "Stop.json", { stop_hook_active: false }));
    assert.equal(blocked.decision, "block");
    assert.match(blocked.reason, /handler-state\.md/);
    assert.equal(s.call("stop", "Stop.json", { stop_hook_active: false }), "");
  });

  test("worker chain: the dispatch file is named, and the agent's Read of it passes and counts", () => {
    const s = sandbox();
    const dispatchFile = join(s.project, "..", "elsewhere", "queue-worker.md");
    s.env.REHYDRATE_DISPATCH_FILE = dispatchFile;
    s.call("pre-compact", "PreCompact-auto.json");
    const start = JSON.parse(s.call("session-start", "SessionStart-compact.json"));
    assert.match(start.hookSpecificOutput.additionalContext, /queue-worker\.md/);
    assert.equal(
      s.call("pre-tool-use", "PreToolUse-Read.json", { tool_input: { file_path: dispatchFile } }),
      "",
      "the re-read passes",
    );
    assert.equal(s.call("pre-tool-use", "PreToolUse-Read.json", bash), "", "and used up the marker");
    assert.equal(s.call("stop", "Stop.json", { stop_hook_active: false }), "");
  });

  test("worker chain: a different first tool call is denied with the dispatch file in the reason", () => {
    const s = sandbox();
    const dispatchFile = join(s.project, "..", "elsewhere", "queue-worker.md");
    s.env.REHYDRATE_DISPATCH_FILE = dispatchFile;
    s.call("pre-compact", "PreCompact-auto.json");
    const denied = JSON.parse(s.call("pre-tool-use", "PreToolUse-Read.json", bash));
    assert.ok(denied.hookSpecificOutput.permissionDecisionReason.includes("queue-worker.md"));
  });

  test("a regular session is silent in every hook", () => {
    const s = sandbox();
    writeFileSync(join(s.project, ".claude", "rehydrate.json"), "{}");
    for (
      const [hook, file, patch] of [
        ["post-tool-use", "PostToolUse-Read.json", {}],
        ["pre-compact", "PreCompact-auto.json", {}],
        ["session-start", "SessionStart-compact.json", {}],
        ["user-prompt-submit", "UserPromptSubmit.json", {}],
        ["pre-tool-use", "PreToolUse-Read.json", bash],
        ["stop", "Stop.json", { stop_hook_active: false }],
      ] as const
    ) {
      assert.equal(s.call(hook, file, patch), "", hook);
    }
  });
});
