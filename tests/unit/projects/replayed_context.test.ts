import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { replayedNexusContext } from "../../../lib/projects/replayed_context.ts";

const DOC = '<nexus-context version="v4" mode="startup">…</nexus-context>';
const rows = {
  user: (text: string, meta = false) => ({ type: "user", isMeta: meta, message: { role: "user", content: text } }),
  attachment: (text: string) => ({
    type: "attachment",
    attachment: { type: "hook_additional_context", hookEvent: "SessionStart", content: [text] },
  }),
  boundary: () => ({ type: "system", subtype: "compact_boundary", content: "Conversation compacted" }),
};

function withTranscript(lines: unknown[], fn: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-replay-"));
  try {
    const path = join(dir, "t.jsonl");
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    fn(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("replayedNexusContext()", () => {
  test("a delivered document after the last boundary (or without one) is present", () => {
    withTranscript(
      [rows.user("hi"), rows.attachment(DOC)],
      (p) => assert.equal(replayedNexusContext(p, 1 << 20), "present"),
    );
    withTranscript(
      [rows.attachment(DOC), rows.boundary(), rows.user("go on"), rows.attachment(DOC)],
      (p) => assert.equal(replayedNexusContext(p, 1 << 20), "present"),
    );
  });

  test("a document before the last boundary, one typed by the user, or none at all is absent", () => {
    withTranscript(
      [rows.attachment(DOC), rows.boundary(), rows.user("go on")],
      (p) => assert.equal(replayedNexusContext(p, 1 << 20), "absent"),
    );
    withTranscript([rows.user(`look: ${DOC}`)], (p) => assert.equal(replayedNexusContext(p, 1 << 20), "absent"));
    // A meta row (a skill's text, a system reminder) can carry a repository's words: it does not count.
    withTranscript(
      [rows.user(`<system-reminder>${DOC}`, true)],
      (p) => assert.equal(replayedNexusContext(p, 1 << 20), "absent"),
    );
    withTranscript([rows.user("hi")], (p) => assert.equal(replayedNexusContext(p, 1 << 20), "absent"));
    assert.equal(replayedNexusContext("/nonexistent/t.jsonl", 1 << 20), "absent");
    assert.equal(replayedNexusContext(undefined, 1 << 20), "absent");
  });

  test("a budget that ends before the boundary or the start cannot tell", () => {
    const filler = Array.from({ length: 200 }, (_, i) => rows.user(`message ${i} ${"x".repeat(200)}`));
    withTranscript([rows.attachment(DOC), ...filler], (p) => assert.equal(replayedNexusContext(p, 4096), "unknown"));
  });
});
