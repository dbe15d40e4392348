// A saved snapshot made stale only by messages the user typed (Claude Code 2.1.3xx writes the
// prompt that set off an automatic compaction after PreCompact read the transcript) is brought up
// to date at SessionStart without ranking the rows again: its working set stands, and what a full
// rebuild keeps besides (tasks, edited files, typed requests, re-attached files) must be the same.
// The oracle is the full rebuild of the same transcript.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { buildSessionSnapshot, type SessionSnapshot } from "../../../lib/session/snapshot.ts";
import { currentSessionSnapshot } from "../../../lib/session/current_snapshot.ts";
import { readSessionSnapshot, writeSessionSnapshot } from "../../../lib/session/snapshot_file.ts";
import { transcriptHead } from "../../../lib/session/_activity.ts";
import { sessionSnapshotSchema } from "../../../lib/session/session_snapshot_schema.ts";
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";
import {
  callRow,
  cleanup,
  createTask,
  devTranscript,
  resultRow,
  tempDir,
  textRow,
  updateTask,
  userRow,
  writeLines,
} from "./_fixtures.ts";

after(cleanup);

const SESSION = "5e55f1a7-2c1b-4d3e-9f00-7a1b2c3d4e5f";
const CWD = "/home/dev/work/demo-proj";
const AT_PRECOMPACT = new Date("2026-11-21T10:00:00.000Z");
const AT_START = new Date("2026-11-21T10:00:05.000Z");

const line = (row: TranscriptRow) => JSON.stringify(row) + "\n";

/** What Claude Code writes around a compaction, after the rows PreCompact read: none of it is activity. */
function compactionRows(files: readonly string[]): TranscriptRow[] {
  const base = { isSidechain: false, cwd: CWD, sessionId: SESSION, timestamp: "2026-11-21T09:59:59.000Z" };
  return [
    {
      ...base,
      type: "system",
      subtype: "compact_boundary",
      uuid: "b0000000-0000-4000-8000-0000000000b1",
      compactMetadata: { trigger: "auto", preTokens: 172000 },
    },
    {
      ...base,
      type: "user",
      uuid: "b0000000-0000-4000-8000-0000000000b2",
      isCompactSummary: true,
      message: { role: "user", content: "This session is being continued from a previous conversation..." },
    },
    ...files.map((f, i) => ({
      ...base,
      type: "attachment",
      uuid: `b0000000-0000-4000-8000-0000000000c${i}`,
      attachment: { type: "file", filename: `${CWD}/${f}`, content: { type: "text", file: { content: "x" } } },
    })),
  ] as TranscriptRow[];
}

/**
 * The rows before the compaction: older talk (more than one read chunk of it), then tasks, edits,
 * reads and three typed requests.
 */
function work(): TranscriptRow[] {
  const rows = Array.from({ length: 300 }, (_, i) => textRow(`Reading the module, part ${i}: ${"x".repeat(1000)}`));
  rows.push(userRow("Fix the rounding in the invoice totals"));
  rows.push(...createTask("1", "Fix rounding: sum integer cents in src/format.ts", "0.1 + 0.2 drifts"));
  rows.push(...createTask("2", "Write the regression test"));
  rows.push(...updateTask({ taskId: "1", status: "in_progress" }));
  const files = ["src/format.ts", "src/parse.ts", "src/money.ts", "test/format.test.ts", "README.md", "src/index.ts"];
  files.forEach((f, i) => {
    rows.push(callRow(`toolu_read_${i}`, "Read", { file_path: `${CWD}/${f}` }), resultRow(`toolu_read_${i}`, "1\tx"));
  });
  rows.push(userRow("Keep the public API as it is"));
  rows.push(
    callRow("toolu_edit_1", "Edit", { file_path: `${CWD}/src/format.ts`, old_string: "a", new_string: "b" }),
    resultRow("toolu_edit_1", "The file has been updated."),
  );
  rows.push(
    callRow("toolu_grep_1", "Grep", { pattern: "toFixed", path: CWD }),
    resultRow("toolu_grep_1", "src/format.ts:3\nsrc/report.ts:9", {
      detail: { filenames: ["src/format.ts", "src/report.ts"] },
    }),
  );
  rows.push(userRow("Then run the tests"), textRow("Running them."));
  return rows;
}

/** The snapshot PreCompact saved of `rows`, in a fresh state directory. */
function savedAt(rows: readonly TranscriptRow[]): { dir: string; saved: SessionSnapshot; text: string } {
  const text = rows.map(line).join("");
  const saved = buildSessionSnapshot(writeLines(text, "pre.jsonl"), {
    sessionId: SESSION,
    cwd: CWD,
    trigger: "auto",
    now: AT_PRECOMPACT,
    git: null,
  });
  const dir = tempDir("rehydrate-state-");
  writeSessionSnapshot(dir, saved);
  return { dir, saved, text };
}

/** What a rebuild keeps besides the working set. */
function besides(s: SessionSnapshot) {
  return {
    tasks_source: s.tasks_source,
    tasks: s.tasks,
    tasks_omitted: s.tasks_omitted,
    user_requests: s.user_requests,
    edited_files: s.edited_files,
    edited_files_total: s.edited_files_total,
    reattached_files: s.reattached_files,
    reattached_source: s.reattached_source,
    last_uuid: s.transcript.last_uuid,
    last_timestamp: s.transcript.last_timestamp,
  };
}

function fullRebuild(path: string, trigger: string | undefined): SessionSnapshot {
  return buildSessionSnapshot(path, {
    sessionId: SESSION,
    cwd: CWD,
    trigger,
    builtBy: "session-start",
    now: AT_START,
    git: null,
  });
}

describe("transcriptHead() since a snapshot's row", () => {
  const rows = work();
  const last = rows.at(-1)!;
  const mark = { uuid: last.uuid as string, timestamp: last.timestamp as string };
  const prompt = userRow("Now write the regression test for 0.1 + 0.2");

  test("transcriptHead() with `since` says when only typed messages are newer than that row", () => {
    const typed = writeLines([...rows, prompt, userRow("and the docs")].map(line).join(""));
    assert.equal(transcriptHead(typed, 1 << 20, mark).typedSince, true);
    const compacted = writeLines([...rows, prompt, ...compactionRows(["src/format.ts"])].map(line).join(""));
    const head = transcriptHead(compacted, 1 << 20, mark);
    assert.equal(head.typedSince, true, "the client's compaction rows are not activity");
    assert.deepEqual(head.attached, [`${CWD}/src/format.ts`]);
    assert.equal(head.mark?.uuid, prompt.uuid);
    assert.equal(transcriptHead(writeLines(rows.map(line).join("")), 1 << 20, mark).typedSince, true, "nothing newer");
  });

  test("transcriptHead() with `since` says nothing after an assistant row, a tool result or a missing row", () => {
    const answered = writeLines([...rows, prompt, textRow("On it.")].map(line).join(""));
    assert.equal(transcriptHead(answered, 1 << 20, mark).typedSince, undefined);
    const called = writeLines(
      [...rows, callRow("toolu_late", "Read", { file_path: `${CWD}/a.ts` }), prompt].map(line).join(""),
    );
    assert.equal(transcriptHead(called, 1 << 20, mark).typedSince, undefined);
    const other = writeLines([...rows, prompt].map(line).join(""));
    assert.equal(transcriptHead(other, 1 << 20, { uuid: "not-a-row" }).typedSince, undefined);
    assert.equal(
      transcriptHead(other, 1 << 20, { ...mark, timestamp: "2020-01-01T00:00:00.000Z" }).typedSince,
      undefined,
    );
    assert.equal(transcriptHead(other, 1 << 20, {}).typedSince, undefined, "no uuid, no join");
    assert.equal(transcriptHead(other, 200, mark).typedSince, undefined, "the row lies beyond the budget");
    assert.equal(transcriptHead(other, 1 << 20).typedSince, undefined);
  });
});

describe("currentSessionSnapshot() after a prompt written past PreCompact", () => {
  test("currentSessionSnapshot() keeps the working set and matches the full rebuild in everything else", () => {
    const rows = work();
    const { dir, saved, text } = savedAt(rows);
    const path = writeLines(
      text + line(userRow("Now write the regression test for 0.1 + 0.2")) +
        compactionRows(["src/format.ts", "test/format.test.ts"]).map(line).join(""),
      "start.jsonl",
    );
    const got = currentSessionSnapshot(dir, path, { sessionId: SESSION, cwd: CWD, now: AT_START });
    assert.equal(got.rebuilt, true);
    assert.equal(got.keptWorkingSet, true);
    assert.equal(got.problem, null);
    assert.deepEqual(got.snapshot.working_set, saved.working_set);
    const full = fullRebuild(path, "auto");
    assert.deepEqual(besides(got.snapshot), besides(full));
    assert.equal(got.snapshot.user_requests[0].text, "Now write the regression test for 0.1 + 0.2");
    assert.deepEqual(got.snapshot.reattached_files, ["test/format.test.ts", "src/format.ts"], "newest first");
    assert.equal(got.snapshot.transcript.continues, saved.created_at);
    assert.equal(got.snapshot.built_by, "session-start");
    assert.equal(got.snapshot.trigger, "auto");
    assert.ok(got.snapshot.transcript.bytes_read < full.transcript.bytes_read, "read back to the saved row only");
    assert.deepEqual(validateSchema(sessionSnapshotSchema(), got.snapshot), []);
    assert.deepEqual(readSessionSnapshot(dir, SESSION).snapshot, got.snapshot, "saved for the next compaction");
  });

  test("currentSessionSnapshot() ranks again when the agent acted after the saved snapshot", () => {
    const rows = work();
    const { dir, saved, text } = savedAt(rows);
    const path = writeLines(
      text + [
        userRow("Look at the tax module too"),
        callRow("toolu_tax", "Read", { file_path: `${CWD}/src/tax.ts` }),
        resultRow("toolu_tax", "1\texport const rate = 0.2;"),
        ...createTask("3", "Check the tax rounding"),
      ].map(line).join(""),
      "start.jsonl",
    );
    const got = currentSessionSnapshot(dir, path, { sessionId: SESSION, cwd: CWD, now: AT_START });
    assert.equal(got.rebuilt, true);
    assert.equal(got.keptWorkingSet, false);
    assert.ok(got.snapshot.working_set.some((f) => f.path === "src/tax.ts"), "the new read is ranked");
    const again = buildSessionSnapshot(path, {
      sessionId: SESSION,
      cwd: CWD,
      trigger: "auto",
      builtBy: "session-start",
      now: AT_START,
      git: null,
      previous: saved,
    });
    assert.deepEqual(got.snapshot, again);
    assert.deepEqual(got.snapshot.tasks.map((t) => t.id), ["1", "2", "3"]);
  });

  test("currentSessionSnapshot() keeps no working set of another directory's snapshot", () => {
    const rows = work();
    const { dir, saved, text } = savedAt(rows);
    const path = writeLines(text + line(userRow("Now the docs")), "start.jsonl");
    const got = currentSessionSnapshot(dir, path, { sessionId: SESSION, cwd: "/home/dev/work/other", now: AT_START });
    assert.equal(got.rebuilt, true);
    assert.equal(got.keptWorkingSet, false, "a snapshot of another cwd is not continued");
    assert.notDeepEqual(got.snapshot.transcript.continues, saved.created_at);
  });

  // Real sessions of the development set, cut where they were compacted: the prompt after the cut
  // (or a made-up one) written past PreCompact. Whatever the working set, the rest is the full rebuild's.
  for (const id of ["0276a600", "062a8bdd", "545b45d4", "aa4038a5", "b42aaf1f"]) {
    test(`currentSessionSnapshot() on development session ${id}: the same as the full rebuild but the working set`, () => {
      const cut = readFileSync(devTranscript(id, true), "utf8");
      const cwd = (JSON.parse(cut.split("\n").findLast((l) => l.includes('"cwd"'))!) as { cwd: string }).cwd;
      const sessionId = (JSON.parse(cut.split("\n").findLast((l) => l.includes('"sessionId"'))!) as {
        sessionId: string;
      }).sessionId;
      const saved = buildSessionSnapshot(writeLines(cut, "pre.jsonl"), {
        sessionId,
        cwd,
        trigger: "auto",
        now: AT_PRECOMPACT,
        git: null,
      });
      const dir = tempDir("rehydrate-state-");
      writeSessionSnapshot(dir, saved);
      const prompt = {
        ...userRow("Carry on with the failing test in the parser, then update the changelog"),
        cwd,
        sessionId,
      };
      const path = writeLines(cut + line(prompt), "start.jsonl");
      const got = currentSessionSnapshot(dir, path, { sessionId, cwd, now: AT_START });
      assert.equal(got.keptWorkingSet, true);
      assert.deepEqual(got.snapshot.working_set, saved.working_set);
      const full = buildSessionSnapshot(path, {
        sessionId,
        cwd,
        trigger: "auto",
        builtBy: "session-start",
        now: AT_START,
        git: null,
      });
      assert.deepEqual(besides(got.snapshot), besides(full));
      assert.equal(got.snapshot.user_requests[0].text, prompt.message!.content);
    });
  }
});
