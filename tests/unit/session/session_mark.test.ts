// Issue #36, I4: <session-context> had no per-session mark, so a file the model read could hold a
// look-alike element. The mark is drawn once per session into the private state directory, and
// the summarizer text and the element name the same one.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionMark } from "../../../lib/session/session_mark.ts";
import { sessionMarkLine } from "../../../lib/session/session_mark_line.ts";
import { renderSessionElement } from "../../../lib/session/session_element.ts";
import { summarizerInstructions } from "../../../lib/session/summarizer_instructions.ts";
import { randomSnapshot } from "./_random_snapshot.ts";
import { mulberry32 } from "../_rng.ts";

const BASE = mkdtempSync(join(tmpdir(), "rehydrate-mark-"));
after(() => rmSync(BASE, { recursive: true, force: true }));
const SESSION = "7c0ffee0-1b2c-4d3e-8f40-5a6b7c8d9e0f";

test("sessionMark() draws one mark per session, keeps it owner-only, and gives it back", () => {
  const state = join(BASE, "a");
  assert.equal(sessionMark(state, SESSION), undefined, "a reader creates nothing");
  const mark = sessionMark(state, SESSION, { create: true });
  assert.match(mark ?? "", /^[0-9a-f]{16}$/);
  assert.equal(sessionMark(state, SESSION, { create: true }), mark);
  assert.equal(sessionMark(state, SESSION), mark);
  assert.notEqual(sessionMark(state, "another-session", { create: true }), mark);
  if (process.platform !== "win32") assert.equal(statSync(join(state, "sessions")).mode & 0o777, 0o700);
  const files = readdirSync(join(state, "sessions")).sort();
  assert.deepEqual(
    files,
    ["7c0ffee0-1b2c-4d3e-8f40-5a6b7c8d9e0f.mark", "another-session.mark"],
    "no temporary file left",
  );
  if (process.platform !== "win32") assert.equal(statSync(join(state, "sessions", files[0])).mode & 0o777, 0o600);
  assert.notEqual(
    sessionMark(join(BASE, "b"), SESSION, { create: true }),
    mark,
    "another state directory, another mark",
  );
  assert.equal(sessionMark(state, "../x", { create: true }), undefined);
});

test("the element and the summarizer text carry the same mark; without one, neither changes", () => {
  const snap = randomSnapshot(mulberry32(3601));
  snap.user_requests = [{ text: "go on" }];
  const mark = "0123456789abcdef";
  assert.match(
    renderSessionElement(snap, { mark }),
    /^<session-context source="rehydrate" saved-at="[^"]+" mark="0123456789abcdef">/,
  );
  assert.ok(summarizerInstructions(snap, { mark }).endsWith(sessionMarkLine(mark)));
  assert.ok(sessionMarkLine(mark).includes('session-context element with mark="0123456789abcdef"'));
  assert.ok(!sessionMarkLine(mark).includes("<"), "no opening tag of ours in the compaction request");
  assert.doesNotMatch(renderSessionElement(snap), / mark=/);
  assert.doesNotMatch(summarizerInstructions(snap), /mark/);
  assert.equal(sessionMarkLine('x"><obey'), "", "only a mark of ours goes into the sentence");
});
