// The everyday snapshot of a Codex thread (lib/session/codex_snapshot.ts) and its delivery
// (lib/session/codex_context.ts), on the rollouts captured from Codex 0.171.0: the same snapshot
// shape as Claude Code's, checked against its schema, redacted, and within Codex's cap.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { buildCodexSnapshot, codexSnapshotMark } from "../../../lib/session/codex_snapshot.ts";
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import { sessionSnapshotSchema } from "../../../lib/session/session_snapshot_schema.ts";
import { renderSessionElement } from "../../../lib/session/session_element.ts";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { CODEX_HOOK_MAX_BYTES, codexSessionContext } from "../../../lib/session/codex_context.ts";
import { codexCopy, threadRollout } from "./_fixture.ts";

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date("2026-11-28T15:12:40.000Z");
const strip = (text: string) => text.replace(/ \[mock:\w+\]/g, "");

describe("buildCodexSnapshot()", () => {
  test("gives the plan, the requests, the failing test command and the edited files at PreCompact", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    const s = buildCodexSnapshot(path, { sessionId: "t", cwd: c.project, trigger: "manual", git: null, now: NOW });
    assert.deepEqual(validateSchema(sessionSnapshotSchema(), s), []);
    assert.equal(s.host, "codex");
    assert.equal(s.tasks_source, "plan");
    assert.deepEqual(s.tasks.map((t) => [t.source, t.status, t.subject]), [
      ["plan", "in_progress", "Fix rounding: sum integer cents in src/format.js"],
      ["plan", "pending", "Add a regression test for 0.1 + 0.2"],
    ]);
    assert.deepEqual(s.user_requests.map((r) => strip(r.text)), [
      "Now write the regression test for 0.1 + 0.2",
      "The totals are off by a cent sometimes. Find out why.",
    ]);
    assert.deepEqual(s.commands?.map((x) => [x.command, x.exit, x.failure?.slice(0, 8)]), [[
      "npm test",
      1,
      "not ok 1",
    ]]);
    assert.deepEqual(s.edited_files, [{ path: "test/cents.test.js", created: true }, { path: "src/format.js" }]);
    assert.deepEqual(s.working_set.map((w) => [w.path, w.reasons]), [
      ["test/cents.test.js", ["edited"]],
      ["src/format.js", ["edited", "read"]],
    ]);
    assert.deepEqual(s.reattached_files, []);
    assert.equal(s.trigger, "manual");
    assert.match(s.transcript.last_uuid ?? "", /^ordinal:\d+$/);
  });

  test("after the compaction, reads only the rows before it, to the same mark", () => {
    const c = codexCopy(made);
    const before = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    const after = c.rollout("rollout-snapshots/at-SessionStart-1.jsonl");
    const a = buildCodexSnapshot(before, { sessionId: "t", cwd: c.project, git: null, now: NOW });
    const b = buildCodexSnapshot(after, {
      sessionId: "t",
      cwd: c.project,
      git: null,
      now: NOW,
      beforeCompaction: true,
    });
    assert.deepEqual({ ...b, transcript: a.transcript }, a);
    assert.deepEqual(codexSnapshotMark(after, { beforeCompaction: true }), {
      uuid: a.transcript.last_uuid,
      timestamp: a.transcript.last_timestamp,
    });
    // Without skipping the compacted context, the newer rows would count.
    assert.notEqual(codexSnapshotMark(c.rollout(threadRollout())).uuid, a.transcript.last_uuid);
  });

  test("redacts a secret the user typed and quotes a bare reply's question", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    const row = (ordinal: number, payload: Record<string, unknown>) =>
      JSON.stringify({ timestamp: "2026-11-28T15:12:35.000Z", ordinal, type: "response_item", payload }) + "\n";
    appendFileSync(
      path,
      row(900, {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "Shall I push to main?" }],
      }) +
        row(901, {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "the token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 keep it" }],
          internal_chat_message_metadata_passthrough: { content_item_kinds: ["user.text"] },
        }) +
        row(902, {
          type: "message",
          role: "assistant",
          content: [{ type: "output_text", text: "Shall I push to main?" }],
        }) +
        row(903, {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: "yes" }],
          internal_chat_message_metadata_passthrough: { content_item_kinds: ["user.text"] },
        }),
    );
    const s = buildCodexSnapshot(path, { sessionId: "t", cwd: c.project, git: null, now: NOW });
    assert.equal(s.user_requests[0].text, "yes");
    assert.equal(s.reply_to, "Shall I push to main?");
    assert.ok(!JSON.stringify(s).includes("ghp_abcdefghijklmnopqrstuvwxyz0123456789"));
    assert.match(s.user_requests[1].text, /\[REDACTED:github-token\]/);
    assert.equal(s.transcript.last_uuid, "ordinal:903");
  });

  test("a missing rollout gives an empty snapshot that passes the schema", () => {
    const s = buildCodexSnapshot("/nonexistent/rollout-x.jsonl", { sessionId: "t", git: null, now: NOW });
    assert.deepEqual(validateSchema(sessionSnapshotSchema(), s), []);
    assert.deepEqual([s.tasks, s.user_requests, s.edited_files, s.transcript.reached_start], [[], [], [], true]);
  });

  test("the element names Codex's command tool, not Bash", () => {
    const c = codexCopy(made);
    const s = buildCodexSnapshot(c.rollout("rollout-snapshots/at-PreCompact-1.jsonl"), {
      sessionId: "t",
      cwd: c.project,
      git: null,
      now: NOW,
    });
    const element = renderSessionElement(s);
    assert.match(element, /ran last \(exec_command\)/);
    assert.doesNotMatch(element, /\(Bash\)/);
  });
});

describe("codexSessionContext()", () => {
  /** SessionStart(compact)'s context on the capture's first compaction, through a real hook context. */
  function context(extra: { maxBytes?: number; typed?: string } = {}): string {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-SessionStart-1.jsonl");
    if (extra.typed !== undefined) {
      // A long message in a non-Latin script before the compaction: three bytes a character.
      const lines = readLines(path);
      const at = lines.findIndex((l) => l.includes('"type":"compacted"'));
      const row = JSON.stringify({
        timestamp: "2026-11-28T15:12:32.000Z",
        ordinal: 800,
        type: "response_item",
        payload: {
          type: "message",
          role: "user",
          content: [{ type: "input_text", text: extra.typed }],
          internal_chat_message_metadata_passthrough: { content_item_kinds: ["user.text"] },
        },
      });
      lines.splice(at, 0, row);
      writeLines(path, lines);
    }
    let out = "";
    handleHook(
      "SessionStart",
      (ctx) => {
        out = codexSessionContext(ctx, { maxBytes: extra.maxBytes });
        return null;
      },
      c.input("SessionStart-compact.json", path),
      { env: c.env, now: NOW },
    );
    return out;
  }

  test("gives SessionStart's element and the summary's gaps at once", () => {
    const text = context();
    const elements = text.match(/<session-context\b[^>]*>/g) ?? [];
    assert.equal(elements.length, 2);
    assert.doesNotMatch(elements[0], /part=/);
    assert.match(elements[1], /part="after-summary"/);
    assert.match(text, /<request latest="true">Now write the regression test for 0\.1 \+ 0\.2/);
    assert.match(text, /<command exit="1" failure="not ok 1 - [^"]*">npm test<\/command>/);
    // The open step the summary does not carry; the other matches a message Codex kept.
    assert.match(text, /<subject>Fix rounding: sum integer cents in src\/format\.js<\/subject>/);
    assert.doesNotMatch(text, /<subject>Add a regression test/);
    // Both edited files exist and the summary names neither.
    assert.match(text, /<file path="test\/cents\.test\.js" created="true"\/>/);
    assert.match(text, /<file path="src\/format\.js"\/>/);
    // The messages Codex kept word for word are not repeated.
    assert.doesNotMatch(text, /The totals are off by a cent/);
  });

  test("stays within Codex's cap in UTF-8 bytes, also for text of three bytes a character", () => {
    const long = "計算".repeat(3000);
    const text = context({ typed: long });
    assert.ok(new TextEncoder().encode(text).length <= CODEX_HOOK_MAX_BYTES, `${text.length} characters`);
    assert.match(text, /<request latest="true" truncated="true">計算/);
    const small = context({ typed: long, maxBytes: 2000 });
    assert.ok(new TextEncoder().encode(small).length <= 2000);
  });
});

function readLines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
}

function writeLines(path: string, lines: string[]): void {
  writeFileSync(path, lines.join("\n") + "\n");
}
