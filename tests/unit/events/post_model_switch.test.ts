// PostModelSwitch writes the new model into the session record, where SessionStart put the one the
// session started with and the fill warning reads it (the window can change mid-session).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { postModelSwitchHook } from "../../../lib/events/post_model_switch.ts";
import { sessionStartHook } from "../../../lib/events/session_start.ts";

const CC_332 = join(import.meta.dirname!, "..", "..", "fixtures", "claude-code-2.1.332", "hook-inputs");
const SID = "1b4f5329-d361-4df5-a972-8d56e69e472d";

function world() {
  const root = mkdtempSync(join(tmpdir(), "rehydrate-model-switch-"));
  const state = join(root, "state");
  const env = { REHYDRATE_STATE_DIR: state, HOME: join(root, "home"), CLAUDE_PROJECT_DIR: root, REHYDRATE_DEBUG: "1" };
  const input = (file: string, patch: Record<string, unknown> = {}) => {
    const base = JSON.parse(readFileSync(join(CC_332, file), "utf8"));
    return JSON.stringify({ ...base, session_id: SID, transcript_path: join(root, "t.jsonl"), cwd: root, ...patch });
  };
  return {
    start: (model: string) =>
      handleHook("SessionStart", sessionStartHook, input("SessionStart-startup.json", { model }), { env }),
    switchTo: (patch: Record<string, unknown> = {}) =>
      handleHook("PostModelSwitch", postModelSwitchHook, input("PostModelSwitch-command.json", patch), { env }),
    record: () => JSON.parse(readFileSync(join(state, "sessions", `${SID}.json`), "utf8")),
  };
}

describe("postModelSwitchHook", () => {
  test("postModelSwitchHook records the captured switch's to_model in the session record, silently", () => {
    const w = world();
    w.start("claude-opus-4-6[1m]");
    assert.equal(w.record().model, "claude-opus-4-6[1m]");
    const out = w.switchTo();
    assert.deepEqual(out, { stdout: "", exitCode: 0 });
    const record = w.record();
    assert.equal(record.model, "claude-sonnet-4-6");
    assert.equal(record.source, "startup", "the SessionStart source stays");
  });

  test("postModelSwitchHook keeps the [1m] marker the request carried, which to_model lacks", () => {
    const w = world();
    w.switchTo({ to_model: "claude-opus-4-6", requested_model: "opus[1m]" });
    assert.equal(w.record().model, "claude-opus-4-6[1m]");
    w.switchTo({ to_model: "claude-sonnet-4-6", requested_model: "sonnet" });
    assert.equal(w.record().model, "claude-sonnet-4-6");
  });

  test("postModelSwitchHook leaves the record alone when to_model is missing or odd", () => {
    const w = world();
    w.start("claude-opus-4-6[1m]");
    for (const to of [undefined, 42, "", "a b", "x".repeat(300), "<model>"]) {
      assert.deepEqual(w.switchTo({ to_model: to }), { stdout: "", exitCode: 0 });
      assert.equal(w.record().model, "claude-opus-4-6[1m]", String(to));
    }
  });
});
