// parseHookInput() on every payload captured from the real clients: the oldest supported (2.1.197)
// and the pinned current one (2.1.332), whose inputs carry fields the old ones lack.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseHookInput } from "../../../lib/hook/parse_hook_input.ts";
import type { HookEventName } from "../../../lib/hook/hook_types.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures");
const SETS = ["claude-code-2.1.197", "claude-code-2.1.332"];
const input = (set: string, file: string) => readFileSync(join(FIXTURES, set, "hook-inputs", file), "utf8");

describe("parseHookInput() on captured payloads", () => {
  for (const set of SETS) {
    test(`parseHookInput() accepts every ${set} payload as its own event`, () => {
      const files = readdirSync(join(FIXTURES, set, "hook-inputs")).filter((f) => f.endsWith(".json"));
      assert.ok(files.length >= 17, `${files.length} payloads`);
      for (const file of files) {
        const event = file.replace(/[-.].*$/, "") as HookEventName;
        const r = parseHookInput(input(set, file), { event });
        assert.equal(r.error, null, `${file}: ${r.error?.message}`);
        assert.equal(r.value?.hook_event_name, event, file);
      }
    });
  }

  test("parseHookInput() keeps 2.1.332's resume and fork fields, which 2.1.197 does not send", () => {
    for (const source of ["resume", "fork"]) {
      const r = parseHookInput(input("claude-code-2.1.332", `SessionStart-${source}.json`), { event: "SessionStart" });
      assert.equal(r.value?.source, source);
      assert.equal(typeof r.value?.context_tokens, "number");
      assert.ok(r.value!.context_tokens! > 0);
      assert.equal(typeof r.value?.seconds_since_last_response, "number");
    }
    const old = parseHookInput(input("claude-code-2.1.197", "SessionStart-resume.json"), { event: "SessionStart" });
    assert.equal(old.error, null);
    assert.equal(old.value?.context_tokens, undefined);
  });

  test("parseHookInput() reads 2.1.332's model switch with the new model and the context's tokens", () => {
    const r = parseHookInput(input("claude-code-2.1.332", "PostModelSwitch-command.json"));
    assert.equal(r.error, null);
    assert.equal(r.value?.hook_event_name, "PostModelSwitch");
    assert.equal(r.value?.to_model, "claude-sonnet-4-6");
    assert.equal(typeof r.value?.context_tokens, "number");
  });

  test("parseHookInput() accepts a prompt with or without 2.1.332's `source`", () => {
    const captured = parseHookInput(input("claude-code-2.1.332", "UserPromptSubmit.json"), {
      event: "UserPromptSubmit",
    });
    // Offline, 2.1.332 leaves the field out ("payloads may omit it while the field rolls out").
    assert.equal(captured.value?.source, undefined);
    const injected = { ...JSON.parse(input("claude-code-2.1.332", "UserPromptSubmit-task-notification.json")) };
    injected.source = "system";
    const r = parseHookInput(JSON.stringify(injected), { event: "UserPromptSubmit" });
    assert.equal(r.value?.source, "system");
    assert.match(r.value?.prompt ?? "", /^<task-notification>/);
  });
});

describe("parseHookInput() bounds", () => {
  const base = { session_id: "s", transcript_path: "/t.jsonl", cwd: "/p", hook_event_name: "PreCompact" };

  test("parseHookInput() refuses a cwd or transcript_path longer than 32,767 characters, by code", () => {
    for (const key of ["cwd", "transcript_path"] as const) {
      const long = parseHookInput(JSON.stringify({ ...base, [key]: "\\".repeat(926_383) }));
      assert.equal(long.error?.code, "PATH_TOO_LONG", key);
      assert.equal(long.value, null);
      const limit = parseHookInput(JSON.stringify({ ...base, [key]: "/" + "a".repeat(32_766) }));
      assert.equal(limit.error, null, key);
    }
  });
});
