// A snapshot that continues the previous compaction's snapshot (`previous`) must keep what a
// snapshot read to the budget keeps: the oracle is the same transcript read whole.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { Buffer } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import {
  buildSessionSnapshot,
  type BuildSessionSnapshotOptions,
  type SessionSnapshot,
} from "../../../lib/session/snapshot.ts";
import { sessionSnapshotSchema } from "../../../lib/session/session_snapshot_schema.ts";
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";
import { scanTranscript } from "../../../lib/transcript/scan_transcript.ts";
import { generateTranscriptText } from "../_transcript_gen.ts";
import { writeRepoTranscript } from "../../../bench/gen/repo_transcript.ts";
import { sessionTasks } from "../../../lib/session/tasks.ts";
import { latestUserRequests } from "../../../lib/session/user_requests.ts";
import { editedFiles } from "../../../lib/session/edited_files.ts";
import {
  callRow,
  cleanup,
  createTask,
  DETECTION_DEV,
  historyRow,
  resultRow,
  tempDir,
  textRow,
  updateTask,
  userRow,
  writeLines,
  writeRows,
} from "./_fixtures.ts";

after(cleanup);

const SESSION = "5e55f1a7-2c1b-4d3e-9f00-7a1b2c3d4e5f";
const CWD = "/home/dev/work/demo-proj";
const NOW = new Date("2026-11-21T10:00:00.000Z");

function build(path: string, previous?: SessionSnapshot | null, sessionId = SESSION, cwd = CWD): SessionSnapshot {
  return buildSessionSnapshot(path, { sessionId, cwd, now: NOW, git: null, previous });
}

function boundaryRow(): TranscriptRow {
  return {
    type: "system",
    subtype: "compact_boundary",
    isSidechain: false,
    content: "Conversation compacted",
    uuid: "b0000000-0000-4000-8000-000000000001",
    timestamp: "2026-11-21T09:30:00.000Z",
    cwd: CWD,
    sessionId: SESSION,
    compactMetadata: { trigger: "auto", preTokens: 150000 },
  } as TranscriptRow;
}

function edit(path: string): TranscriptRow[] {
  const id = `toolu_edit_${path.replace(/\W/g, "_")}_${Math.random().toString(36).slice(2)}`;
  return [
    callRow(id, "Edit", { file_path: `${CWD}/${path}`, old_string: "a", new_string: "b" }),
    resultRow(id, "The file has been updated."),
  ];
}

/** What the two snapshots must agree on. */
function kept(s: SessionSnapshot) {
  return {
    tasks_source: s.tasks_source,
    tasks: s.tasks,
    tasks_omitted: s.tasks_omitted,
    user_requests: s.user_requests,
    edited: s.edited_files,
    edited_files_total: s.edited_files_total,
    last_uuid: s.transcript.last_uuid,
  };
}

describe("buildSessionSnapshot() with the previous compaction's snapshot", () => {
  // Before the compaction: tasks 1 and 2, an edit, two typed requests; after it: one request, an
  // update of task 2 (whose creation lies before), a new task, another edit.
  // Older talk first, so that the rows before the join span more than one read chunk (256 KiB).
  const padding = Array.from({ length: 400 }, (_, i) => textRow(`Reading the module, part ${i}: ${"x".repeat(1000)}`));
  const before: TranscriptRow[] = [
    ...padding,
    userRow("Plan the rounding fix"),
    ...createTask("1", "Fix rounding in src/format.ts", "Sum integer cents"),
    ...createTask("2", "Write the regression test"),
    ...edit("src/format.ts"),
    historyRow({ "src/format.ts": "abc@v1" }),
    userRow("Keep the public API as it is"),
    ...updateTask({ taskId: "1", status: "in_progress" }),
    textRow("Working on it."),
  ];
  const after: TranscriptRow[] = [
    boundaryRow(),
    userRow("This session is being continued from a previous conversation...", { isCompactSummary: true }),
    userRow("Now write the regression test for 0.1 + 0.2"),
    ...updateTask({ taskId: "2", status: "in_progress" }),
    ...createTask("3", "Update the changelog"),
    ...edit("test/format.test.ts"),
    ...["src/parse.ts", "src/index.ts", "src/money.ts", "README.md"].flatMap((f, i) => [
      callRow(`toolu_read_${i}`, "Read", { file_path: `${CWD}/${f}` }),
      resultRow(`toolu_read_${i}`, "1\texport {};"),
    ]),
    textRow("Test written."),
  ];

  test("buildSessionSnapshot() continuing the previous snapshot keeps what reading the whole transcript keeps", () => {
    const previous = build(writeRows(before, "before.jsonl"));
    const path = writeRows([...before, ...after], "whole.jsonl");
    const whole = build(path);
    const continued = build(path, previous);
    assert.deepEqual(kept(continued), kept(whole));
    assert.equal(continued.transcript.continues, previous.created_at);
    // The working set's evidence reads on to its 150 calls; with that ranked already, the pass ends at the join.
    const ranked = [{ path: "src/format.ts", reasons: ["edited"] }];
    const short = buildSessionSnapshot(path, {
      sessionId: SESSION,
      cwd: CWD,
      now: NOW,
      git: null,
      previous,
      workingSet: ranked,
    });
    assert.deepEqual(kept(short), kept(whole));
    assert.ok(short.transcript.bytes_read < whole.transcript.bytes_read, "it stopped at the join");
    assert.equal(short.transcript.reached_start, false);
    assert.deepEqual(validateSchema(sessionSnapshotSchema(), continued), []);
    // The task created before the compaction keeps its subject though only its update came after.
    assert.deepEqual(
      continued.tasks.map((t) => [t.id, t.status, t.subject]),
      [
        ["1", "in_progress", "Fix rounding in src/format.ts"],
        ["2", "in_progress", "Write the regression test"],
        ["3", "pending", "Update the changelog"],
      ],
    );
  });

  test("buildSessionSnapshot() keeps what the previous snapshot kept beyond the read budget", () => {
    const previous = build(writeRows(before, "before.jsonl"));
    const path = writeRows([...before, ...after], "whole.jsonl");
    // A budget that reaches the join row (the last row before the compaction) and nothing older.
    const text = readFileSync(path, "utf8");
    const join = Buffer.byteLength(text.slice(0, text.indexOf(JSON.stringify(previous.transcript.last_uuid))));
    const start = Buffer.byteLength(
      text.slice(0, text.lastIndexOf("\n", text.indexOf(JSON.stringify(previous.transcript.last_uuid))) + 1),
    );
    assert.ok(join > start);
    const budgetBytes = Buffer.byteLength(text) - start + 1; // with the newline before it
    // What the budget alone sees: no follow past it (which would read this short file whole).
    const options = { sessionId: SESSION, cwd: CWD, now: NOW, git: null, budgetBytes, followBytes: budgetBytes };
    const small = buildSessionSnapshot(path, options);
    assert.deepEqual(small.tasks.map((t) => [t.id, t.subject]), [["2", ""], ["3", "Update the changelog"]]);
    const marked = { ...previous, tasks: previous.tasks.map((t) => ({ ...t, subject: `${t.subject} (kept)` })) };
    const continued = buildSessionSnapshot(path, { ...options, previous: marked });
    assert.equal(continued.transcript.continues, previous.created_at);
    assert.deepEqual(continued.tasks.map((t) => [t.id, t.status, t.subject]), [
      ["1", "in_progress", "Fix rounding in src/format.ts (kept)"],
      ["2", "in_progress", "Write the regression test (kept)"],
      ["3", "pending", "Update the changelog"],
    ]);
  });

  test("buildSessionSnapshot() follows the task and edit lines past the budget to the previous snapshot's row", () => {
    // A segment longer than the budget, as a 1M-token window writes: the task and the edit right
    // after the compaction lie beyond the budget, the three newest requests within it.
    const long: TranscriptRow[] = [
      ...after.slice(0, 7), // the boundary, the summary, a request, task 2's update, task 3 created
      ...edit("test/format.test.ts"),
      ...Array.from({ length: 300 }, (_, i) => textRow(`Checking case ${i}: ${"y".repeat(1000)}`)),
      userRow("Run the suite"),
      userRow("Then the linter"),
      ...after.slice(-9), // the reads and the last words
      userRow("Commit when green"),
    ];
    const previous = build(writeRows(before, "before.jsonl"));
    const path = writeRows([...before, ...long], "long.jsonl");
    const text = readFileSync(path);
    const budgetBytes = 100_000;
    const read = (more: Partial<BuildSessionSnapshotOptions>) =>
      buildSessionSnapshot(path, { sessionId: SESSION, cwd: CWD, now: NOW, git: null, previous, ...more });
    const followed = read({ budgetBytes });
    const whole = build(path, previous);
    assert.equal(whole.transcript.continues, previous.created_at);
    assert.equal(followed.transcript.continues, previous.created_at);
    assert.deepEqual(kept(followed), kept(whole));
    assert.deepEqual(followed.tasks.map((t) => [t.id, t.status, t.subject]), [
      ["1", "in_progress", "Fix rounding in src/format.ts"],
      ["2", "in_progress", "Write the regression test"],
      ["3", "pending", "Update the changelog"],
    ]);
    assert.ok(followed.edited_files.some((f) => f.path === "test/format.test.ts"));
    assert.ok(followed.transcript.bytes_read > budgetBytes && followed.transcript.bytes_read < text.length);
    assert.deepEqual(validateSchema(sessionSnapshotSchema(), followed), []);

    // A reach just past the join row's line is enough: the follow goes on from where the budget ended.
    const joinLine = text.lastIndexOf("\n", text.indexOf(JSON.stringify(previous.transcript.last_uuid)));
    const tight = read({ budgetBytes, followBytes: text.length - joinLine + 4096 });
    assert.deepEqual(kept(tight), kept(whole));

    // Not followed (the reach no more than the budget): the previous snapshot is not used, as before.
    const unfollowed = read({ budgetBytes, followBytes: budgetBytes });
    assert.equal(unfollowed.transcript.continues, undefined);
    assert.deepEqual(unfollowed.tasks.map((t) => t.id), []);

    // The budget's edge inside task 3's creation: that line is read whole by the follow.
    const created = text.indexOf('"Update the changelog"');
    for (const cut of [created, created - 150, created + 20]) {
      const edge = read({ budgetBytes: text.length - cut });
      assert.deepEqual(kept(edge), kept(whole), `edge at ${cut}`);
    }

    // Typed requests are not followed: past the budget they stay as the budget found them.
    const few = read({
      // To the start of the line of "Then the linter", with the newline before it.
      budgetBytes: text.length - text.lastIndexOf("\n", text.lastIndexOf("Then the linter")),
      userRequests: 5,
    });
    assert.equal(few.transcript.continues, previous.created_at);
    assert.deepEqual(few.user_requests.map((r) => r.text), ["Commit when green", "Then the linter"]);
  });

  test("buildSessionSnapshot() ignores a previous snapshot of another session, another cwd, or whose row it never meets", () => {
    const previous = build(writeRows(before, "before.jsonl"));
    const path = writeRows([...before, ...after], "whole.jsonl");
    const whole = build(path);
    for (
      const other of [
        { ...previous, session_id: "6e55f1a7-2c1b-4d3e-9f00-7a1b2c3d4e5f" },
        { ...previous, cwd: "/home/dev/work/other" },
        { ...previous, transcript: { ...previous.transcript, last_uuid: "ffffffff-0000-4000-8000-000000000000" } },
        { ...previous, transcript: { ...previous.transcript, last_timestamp: "2020-01-01T00:00:00.000Z" } },
        { ...previous, transcript: { bytes_read: 0, reached_start: true } },
      ]
    ) {
      const s = build(path, other);
      assert.equal(s.transcript.continues, undefined);
      assert.deepEqual(kept(s), kept(whole));
    }
    assert.deepEqual(kept(build(path, null)), kept(whole));
  });

  test("buildSessionSnapshot() finds the join row among the lines it would skip, and takes the previous requests", () => {
    // After the compaction: no typed request, no task tool, no edit, so the pass filters lines
    // (nothing to parse) and must still find the join row by its uuid.
    const quiet: TranscriptRow[] = [boundaryRow(), textRow("Done with the summary."), textRow("Idle.")];
    const previous = build(writeRows(before, "before.jsonl"));
    const path = writeRows([...before, ...quiet], "quiet.jsonl");
    const whole = build(path);
    const continued = build(path, previous);
    assert.equal(continued.transcript.continues, previous.created_at);
    assert.deepEqual(kept(continued), kept(whole));
    assert.deepEqual(continued.user_requests.map((r) => r.text), [
      "Keep the public API as it is",
      "Plan the rounding fix",
    ]);
  });

  test("buildSessionSnapshot() continuing from each compaction of the real sessions keeps what reading them whole keeps", () => {
    let joins = 0;
    for (const name of readdirSync(DETECTION_DEV).filter((n) => n.endsWith(".jsonl.gz")).slice(0, 40)) {
      const text = new TextDecoder().decode(gunzipSync(readFileSync(join(DETECTION_DEV, name))));
      const lines = text.split("\n");
      const at = lines.findIndex((l) =>
        l.includes('"subtype":"compact_boundary"') && !l.includes('"isSidechain":true')
      );
      if (at <= 0) continue;
      const first = JSON.parse(lines.find((l) => l.includes('"sessionId"')) ?? "{}");
      const sessionId = typeof first.sessionId === "string" ? first.sessionId : SESSION;
      const cwd = typeof first.cwd === "string" ? first.cwd : CWD;
      const previous = build(
        writeLines(lines.slice(0, at).join("\n") + "\n", `${name}-before.jsonl`),
        null,
        sessionId,
        cwd,
      );
      const path = writeLines(text, `${name}-whole.jsonl`);
      const whole = build(path, null, sessionId, cwd);
      const continued = build(path, previous, sessionId, cwd);
      if (continued.transcript.continues !== undefined) joins++;
      // Within the budget, a whole read sees everything the previous snapshot saw.
      if (whole.transcript.reached_start) assert.deepEqual(kept(continued), kept(whole), name);
    }
    assert.ok(joins >= 3, `continued at ${joins} real compactions`);
  });
});

describe("buildSessionSnapshot() reads only the lines that matter", () => {
  test("buildSessionSnapshot() keeps what the trackers keep when fed every row, on the real and public sessions", () => {
    const dirs = [DETECTION_DEV, join(DETECTION_DEV, "..", "public")];
    let n = 0;
    for (const dir of dirs) {
      for (const name of readdirSync(dir).filter((f) => f.endsWith(".jsonl") || f.endsWith(".jsonl.gz"))) {
        const raw = readFileSync(join(dir, name));
        const text = new TextDecoder().decode(name.endsWith(".gz") ? gunzipSync(raw) : raw);
        const first = JSON.parse(text.split("\n").find((l) => l.includes('"cwd"')) ?? "{}");
        const cwd = typeof first.cwd === "string" ? first.cwd : CWD;
        const path = writeLines(text, `${name}-oracle.jsonl`);
        const s = build(path, null, SESSION, cwd);
        const rows = [...scanTranscript(path)];
        assert.deepEqual(s.tasks, sessionTasks(rows).tasks, `${name}: tasks`);
        assert.deepEqual(s.user_requests, latestUserRequests(rows), `${name}: requests`);
        const edited = editedFiles(rows, { cwd });
        assert.deepEqual(s.edited_files, edited.files, `${name}: edited files`);
        assert.equal(s.edited_files_total, edited.total, `${name}: edited total`);
        n++;
      }
    }
    for (const seed of [3, 5, 8]) {
      const path = writeLines(generateTranscriptText({ seed, turns: 40, compactEvery: 9 }), `gen-${seed}.jsonl`);
      const s = build(path);
      const rows = [...scanTranscript(path)];
      assert.deepEqual(s.tasks, sessionTasks(rows).tasks, `seed ${seed}: tasks`);
      assert.deepEqual(s.user_requests, latestUserRequests(rows), `seed ${seed}: requests`);
      assert.deepEqual(s.edited_files, editedFiles(rows, { cwd: CWD }).files, `seed ${seed}: edited files`);
    }
    // The bench's ordinary-repository session: TaskCreate/TaskUpdate with the client's result
    // records, failed calls, Write results that created files, long Read and Bash results.
    for (const seed of [2001, 2002]) {
      const path = join(tempDir(), `repo-${seed}.jsonl`);
      writeRepoTranscript(path, { targetBytes: 2e6, repo: CWD, sessionId: SESSION, seed });
      const s = build(path);
      const rows = [...scanTranscript(path)];
      assert.ok(s.tasks.length > 0, `seed ${seed}: tasks`);
      assert.deepEqual(s.tasks, sessionTasks(rows).tasks, `repo seed ${seed}: tasks`);
      assert.deepEqual(s.user_requests, latestUserRequests(rows), `repo seed ${seed}: requests`);
      const edited = editedFiles(rows, { cwd: CWD });
      assert.deepEqual(s.edited_files, edited.files, `repo seed ${seed}: edited files`);
      assert.equal(s.edited_files_total, edited.total, `repo seed ${seed}: edited total`);
    }
    assert.ok(n >= 20, `${n} sessions`);
  });
});
