// The debug log says "claimed" when a hook wins a compaction's delivery claim and "delivered" only
// once the hook has bytes to print (issue #23): a session with nothing to say still claims.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { preCompactHook } from "../../../lib/events/pre_compact_hook.ts";
import { sessionStartHook } from "../../../lib/events/session_start.ts";
import { userPromptSubmitHook } from "../../../lib/events/user_prompt_submit.ts";
import { payload } from "../_reread_harness.ts";

const FIX = join(import.meta.dirname!, "..", "..", "fixtures");
const SID = "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf";

function world(transcriptText: string | null) {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-delivery-log-"));
  const project = join(root, "project");
  const state = join(root, "state");
  mkdirSync(join(root, "home"), { recursive: true });
  mkdirSync(project, { recursive: true });
  const transcript = join(root, `${SID}.jsonl`);
  if (transcriptText === null) copyFileSync(join(FIX, "session", "everyday.jsonl"), transcript);
  else writeFileSync(transcript, transcriptText);
  const env = {
    REHYDRATE_STATE_DIR: state,
    HOME: join(root, "home"),
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_DEBUG: "1",
  };
  const patch = { session_id: SID, transcript_path: transcript, cwd: project };
  return {
    log: () => readFileSync(join(state, "debug.log"), "utf8"),
    preCompact: () => handleHook("PreCompact", preCompactHook, payload("PreCompact-auto.json", patch), { env }),
    sessionStart: () =>
      handleHook("SessionStart", sessionStartHook, payload("SessionStart-compact.json", patch), { env }),
    prompt: () =>
      handleHook("UserPromptSubmit", userPromptSubmitHook, payload("UserPromptSubmit.json", patch), { env }),
  };
}

function additionalContext(stdout: string): string {
  return JSON.parse(stdout).hookSpecificOutput.additionalContext;
}

describe("delivery debug log", () => {
  test("SessionStart(compact) logs the claim, then the characters it delivered", async () => {
    const w = world(null);
    const out = await w.sessionStart();
    const chars = additionalContext(out.stdout).length;
    assert.ok(chars > 0);
    assert.match(w.log(), /delivery: compaction \S+ claimed by session-start\n/);
    assert.match(w.log(), new RegExp(`delivery: compaction \\S+ delivered by session-start: ${chars} characters\n`));
  });

  test("SessionStart(compact) with nothing to say claims the compaction but never logs it delivered", async () => {
    const w = world("");
    const out = await w.sessionStart();
    assert.equal(out.stdout, "");
    assert.match(w.log(), /delivery: compaction \S+ claimed by session-start, nothing to print\n/);
    assert.doesNotMatch(w.log(), /delivered by/);
  });

  test("UserPromptSubmit logs the characters it re-delivered when SessionStart never did", async () => {
    const w = world(null);
    await w.preCompact();
    const out = await w.prompt();
    const chars = additionalContext(out.stdout).length;
    assert.match(w.log(), /delivery: compaction \S+ claimed by user-prompt-submit\n/);
    assert.match(
      w.log(),
      new RegExp(`delivery: compaction \\S+ delivered by user-prompt-submit: ${chars} characters\n`),
    );
    assert.equal((await w.prompt()).stdout, "", "a compaction is delivered once");
  });
});
