// The background Stop hook's checkpoint: saved after a turn, continued by the next turn's and by
// PreCompact, which then reads back only to it. The oracle is PreCompact without any checkpoint.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { gunzipSync } from "node:zlib";
import { join } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { sessionCheckpointHook } from "../../../lib/events/session_checkpoint.ts";
import { preCompactHook } from "../../../lib/events/pre_compact_hook.ts";
import { newestSavedSnapshot } from "../../../lib/session/checkpoint.ts";
import { currentSessionSnapshot } from "../../../lib/session/current_snapshot.ts";
import { buildSessionSnapshot, type SessionSnapshot } from "../../../lib/session/snapshot.ts";
import { readSessionSnapshot, sessionSnapshotPath } from "../../../lib/session/snapshot_file.ts";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";
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
} from "./_fixtures.ts";

/** The instructions without the session's mark, which each state directory draws anew (issue #36, I4). */
function unmarked(text: string | undefined): string | undefined {
  return text?.replace(/mark="[0-9a-f]{16}"/, 'mark="…"');
}

after(cleanup);

const SESSION = "5e55f1a7-2c1b-4d3e-9f00-7a1b2c3d4e5f";
const CWD = "/home/dev/work/demo-proj";

function edit(path: string, n: number): TranscriptRow[] {
  const id = `toolu_ck_edit_${n}`;
  return [
    callRow(id, "Edit", { file_path: `${CWD}/${path}`, old_string: "a", new_string: "b" }),
    resultRow(id, "The file has been updated."),
  ];
}

function read(path: string, n: number): TranscriptRow[] {
  const id = `toolu_ck_read_${n}`;
  return [callRow(id, "Read", { file_path: `${CWD}/${path}` }), resultRow(id, "1\texport {};")];
}

/** Three turns and the start of a fourth, in which the compaction comes. */
function turns(): TranscriptRow[][] {
  return [
    [
      userRow("Plan the rounding fix"),
      ...read("src/format.ts", 1),
      ...createTask("1", "Fix rounding in src/format.ts", "Sum integer cents"),
      ...createTask("2", "Write the regression test"),
      ...updateTask({ taskId: "1", status: "in_progress" }),
      ...edit("src/format.ts", 1),
      historyRow({ "src/format.ts": "abc@v1" }),
      textRow("Rounding fixed."),
    ],
    [
      userRow("Keep the public API as it is"),
      ...updateTask({ taskId: "1", status: "completed" }),
      ...createTask("3", "Update the changelog"),
      ...edit("src/parse.ts", 2),
      textRow("Done."),
    ],
    [
      userRow("Now write the regression test for 0.1 + 0.2"),
      ...updateTask({ taskId: "2", status: "in_progress" }),
      ...edit("test/format.test.ts", 3),
      ...read("src/index.ts", 2),
      textRow("Test written."),
    ],
    [
      userRow("And the changelog"),
      ...updateTask({ taskId: "3", status: "in_progress" }),
      ...edit("CHANGELOG.md", 4),
    ],
  ];
}

function world() {
  const root = tempDir("rehydrate-checkpoint-");
  const state = join(root, "state");
  const transcript = join(root, "t.jsonl");
  const env = { REHYDRATE_STATE_DIR: state, HOME: join(root, "home"), CLAUDE_PROJECT_DIR: CWD };
  const base = { session_id: SESSION, transcript_path: transcript, cwd: CWD };
  let clock = Date.UTC(2026, 10, 26, 12, 0, 0);
  const now = () => new Date(clock += 1000);
  return {
    state,
    transcript,
    env,
    write: (rows: readonly TranscriptRow[]) =>
      writeFileSync(transcript, rows.map((r) => JSON.stringify(r)).join("\n") + "\n"),
    stop: (envPatch: Record<string, string> = {}) =>
      handleHook(
        "Stop",
        sessionCheckpointHook,
        JSON.stringify({ ...base, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done." }),
        { env: { ...env, ...envPatch }, now: now() },
      ),
    preCompact: (stateDir = state) =>
      handleHook(
        "PreCompact",
        preCompactHook,
        JSON.stringify({ ...base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null }),
        { env: { ...env, REHYDRATE_STATE_DIR: stateDir }, now: now() },
      ),
    checkpoint: () => readSessionSnapshot(state, SESSION, "checkpoint").snapshot,
    snapshot: (stateDir = state) => readSessionSnapshot(stateDir, SESSION).snapshot,
  };
}

/** A state directory with nothing saved: the oracle's. */
function bareState(): string {
  return join(tempDir("rehydrate-checkpoint-bare-"), "state");
}

/** What a snapshot keeps of the session, whatever it continued. */
function kept(s: SessionSnapshot | null) {
  assert.ok(s !== null);
  return {
    tasks_source: s.tasks_source,
    tasks: s.tasks,
    tasks_omitted: s.tasks_omitted,
    user_requests: s.user_requests,
    edited_files: s.edited_files,
    edited_files_total: s.edited_files_total,
    working_set: s.working_set,
    reattached_files: s.reattached_files,
    last_uuid: s.transcript.last_uuid,
  };
}

describe("the session checkpoint (background Stop hook)", () => {
  test("sessionCheckpointHook saves the tasks, requests and edited files after a turn, silently", () => {
    const w = world();
    const [t1] = turns();
    w.write(t1);
    assert.deepEqual(w.stop(), { stdout: "", exitCode: 0 });
    const c = w.checkpoint();
    assert.ok(c !== null);
    assert.equal(c.built_by, "checkpoint");
    assert.deepEqual(c.tasks.map((t) => [t.id, t.subject, t.status]), [
      ["1", "Fix rounding in src/format.ts", "in_progress"],
      ["2", "Write the regression test", "pending"],
    ]);
    assert.equal(c.user_requests[0]?.text, "Plan the rounding fix");
    assert.deepEqual(c.edited_files.map((f) => f.path), ["src/format.ts"]);
    assert.deepEqual(c.working_set, [], "the working set is PreCompact's to rank");
    assert.equal(c.git, null);
    assert.equal(w.snapshot(), null, "the compaction's snapshot is not touched");
  });

  test("sessionCheckpointHook continues the previous checkpoint, and writes nothing when no turn came since", () => {
    const w = world();
    const [t1, t2] = turns();
    w.write(t1);
    w.stop();
    const first = w.checkpoint()!;
    w.stop();
    assert.equal(w.checkpoint()!.created_at, first.created_at, "unchanged: not written again");
    w.write([...t1, ...t2]);
    w.stop();
    const second = w.checkpoint()!;
    assert.equal(second.transcript.continues, first.created_at);
    assert.deepEqual(second.tasks.map((t) => [t.id, t.status]), [["1", "completed"], ["2", "pending"], [
      "3",
      "pending",
    ]]);
    assert.deepEqual(second.edited_files.map((f) => f.path), ["src/parse.ts", "src/format.ts"]);
  });

  test("sessionCheckpointHook reads back only to the checkpoint before, even in a turn without files", () => {
    const w = world();
    // A long talk without any file read: nothing but the join can end the read.
    const talk = [
      userRow("Explain the design"),
      ...Array.from({ length: 600 }, (_, i) => textRow(`Part ${i}: ${"x".repeat(1000)}`)),
    ];
    w.write(talk);
    w.stop();
    const rows = [...talk, userRow("And the next bit"), textRow("Here it is.")];
    w.write(rows);
    w.stop();
    const second = w.checkpoint()!;
    assert.equal(second.transcript.continues !== undefined, true);
    const size = readFileSync(w.transcript).length;
    assert.ok(second.transcript.bytes_read < size / 4, `${second.transcript.bytes_read} of ${size} bytes`);
    assert.deepEqual(second.reattached_files, [], "PreCompact finds its own");
  });

  test("PreCompact continues the newest checkpoint and saves what it saves without one", () => {
    const w = world();
    const all = turns();
    const rows: TranscriptRow[] = [];
    // Each turn ends with its background checkpoint; the compaction comes in the fourth.
    for (const t of all.slice(0, 3)) {
      rows.push(...t);
      w.write(rows);
      w.stop();
    }
    const checkpoint = w.checkpoint()!;
    rows.push(...all[3]);
    w.write(rows);
    // The oracle: the same state without the checkpoint.
    const bare = bareState();
    const oracle = w.preCompact(bare);
    const outcome = w.preCompact();
    assert.equal(unmarked(outcome.stdout), unmarked(oracle.stdout), "the same instructions");
    const snapshot = w.snapshot()!;
    assert.equal(snapshot.transcript.continues, checkpoint.created_at);
    assert.deepEqual(kept(snapshot), kept(w.snapshot(bare)));
    assert.deepEqual(snapshot.tasks.map((t) => [t.id, t.status]), [
      ["1", "completed"],
      ["2", "in_progress"],
      ["3", "in_progress"],
    ]);
    assert.equal(snapshot.user_requests[0]?.text, "And the changelog");
    assert.ok(snapshot.working_set.length > 0, "ranked by PreCompact");

    // After the compaction the next turn's checkpoint continues the compaction's snapshot.
    rows.push(textRow("Changelog updated."));
    w.write(rows);
    w.stop();
    assert.equal(w.checkpoint()!.transcript.continues, snapshot.created_at);
  });

  test("SessionStart's rebuild, after a compaction without PreCompact, continues the checkpoint too", () => {
    const w = world();
    const all = turns();
    w.write(all[0]);
    w.preCompact();
    const rows = [...all[0], ...all[1], ...all[2]];
    w.write(rows);
    w.stop();
    const checkpoint = w.checkpoint()!;
    // Claude Code compacted while idle, reusing a summary: no PreCompact since the first one.
    rows.push(...all[3]);
    w.write(rows);
    const bare = bareState();
    const options = { sessionId: SESSION, cwd: CWD, save: false };
    const withIt = currentSessionSnapshot(w.state, w.transcript, options);
    const without = currentSessionSnapshot(bare, w.transcript, options);
    assert.equal(withIt.rebuilt, true);
    assert.equal(withIt.snapshot.transcript.continues, checkpoint.created_at);
    assert.deepEqual(kept(withIt.snapshot), kept(without.snapshot));
  });

  test("newestSavedSnapshot() takes the newer of the two files, and only a checkpoint from the checkpoint's file", () => {
    const w = world();
    const [t1, t2] = turns();
    w.write(t1);
    w.preCompact();
    const snapshot = w.snapshot()!;
    assert.equal(newestSavedSnapshot(w.state, SESSION)?.created_at, snapshot.created_at);
    w.write([...t1, ...t2]);
    w.stop();
    const checkpoint = w.checkpoint()!;
    assert.equal(newestSavedSnapshot(w.state, SESSION)?.created_at, checkpoint.created_at);
    // A snapshot file newer than the checkpoint wins.
    const path = sessionSnapshotPath(w.state, SESSION)!;
    const later = { ...snapshot, created_at: "2099-01-01T00:00:00.000Z" };
    writeFileSync(path, JSON.stringify(later));
    assert.equal(newestSavedSnapshot(w.state, SESSION)?.created_at, later.created_at);
    // A checkpoint's file holding a compaction's snapshot is not a checkpoint.
    const cpath = sessionSnapshotPath(w.state, SESSION, "checkpoint")!;
    writeFileSync(
      cpath,
      JSON.stringify({ ...checkpoint, built_by: "pre-compact", created_at: "2099-02-01T00:00:00.000Z" }),
    );
    assert.equal(newestSavedSnapshot(w.state, SESSION)?.created_at, later.created_at);
    // Nor is a link, whatever it points to.
    unlinkSync(cpath);
    const elsewhere = join(tempDir(), "c.json");
    writeFileSync(elsewhere, JSON.stringify({ ...checkpoint, created_at: "2099-03-01T00:00:00.000Z" }), {
      mode: 0o600,
    });
    symlinkSync(elsewhere, cpath);
    assert.equal(newestSavedSnapshot(w.state, SESSION)?.created_at, later.created_at);
    assert.equal(readSessionSnapshot(w.state, SESSION, "checkpoint").snapshot, null);
  });

  test("a checkpoint whose row the transcript no longer has is not continued: the tail is read as without one", () => {
    const w = world();
    const [t1, t2, t3] = turns();
    w.write([...t1, ...t2]);
    w.stop();
    // The session went on from a different history (a rewind): the checkpoint's row is gone.
    w.write([...t1, ...t3]);
    const bare = bareState();
    const oracle = w.preCompact(bare);
    assert.equal(unmarked(w.preCompact().stdout), unmarked(oracle.stdout));
    assert.equal(w.snapshot()!.transcript.continues, undefined);
    assert.deepEqual(kept(w.snapshot()), kept(w.snapshot(bare)));
  });

  test("sessionCheckpointHook sweeps what a session that never compacts would leave: week-old files, stray temp files", () => {
    const w = world();
    const dir = join(w.state, "sessions");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const old = (name: string, days: number) => {
      writeFileSync(join(dir, name), "{}", { mode: 0o600 });
      const t = new Date(Date.UTC(2026, 10, 26, 12, 0, 0) - days * 86_400_000);
      utimesSync(join(dir, name), t, t);
    };
    old("0a0b0c0d-1111-4222-8333-444455556666.checkpoint.json", 8);
    old("0a0b0c0d-1111-4222-8333-444455556667.snapshot.json", 8);
    old("0a0b0c0d-1111-4222-8333-444455556668.checkpoint.json", 2);
    old(".x.checkpoint.json.123.abc.0.tmp", 1);
    writeFileSync(join(dir, ".y.checkpoint.json.124.abc.0.tmp"), "", { mode: 0o600 });
    w.write(turns()[0]);
    w.stop();
    assert.deepEqual(readdirSync(dir).sort(), [
      ".y.checkpoint.json.124.abc.0.tmp",
      "0a0b0c0d-1111-4222-8333-444455556668.checkpoint.json",
      `${SESSION}.checkpoint.json`,
    ]);
  });

  test("sessionCheckpointHook saves nothing when the everyday layer is off, or the transcript is missing", () => {
    const w = world();
    w.write(turns()[0]);
    const config = join(tempDir(), "off.json");
    writeFileSync(config, JSON.stringify({ session: { enabled: false } }));
    assert.deepEqual(w.stop({ REHYDRATE_CONFIG: config }), { stdout: "", exitCode: 0 });
    assert.equal(existsSync(join(w.state, "sessions")) && readdirSync(join(w.state, "sessions")).length > 0, false);
    unlinkSync(w.transcript);
    assert.deepEqual(w.stop(), { stdout: "", exitCode: 0 });
    assert.equal(w.checkpoint(), null);
  });
});

describe("checkpoints on real sessions", () => {
  test("a checkpoint after every few turns, then PreCompact at the first compaction, saves what PreCompact alone saves", () => {
    let compared = 0;
    for (const name of readdirSync(DETECTION_DEV).filter((n) => n.endsWith(".jsonl.gz")).slice(0, 12)) {
      const text = new TextDecoder().decode(gunzipSync(readFileSync(join(DETECTION_DEV, name))));
      const lines = text.split("\n");
      const end = lines.findIndex((l) =>
        l.includes('"subtype":"compact_boundary"') && !l.includes('"isSidechain":true')
      );
      const upTo = end === -1 ? lines.length : end;
      const first = JSON.parse(lines.find((l) => l.includes('"sessionId"')) ?? "{}");
      const sessionId = typeof first.sessionId === "string" ? first.sessionId : SESSION;
      const cwd = typeof first.cwd === "string" ? first.cwd : CWD;
      // Turn ends: the line before each message the user typed.
      const prompts: number[] = [];
      for (let i = 1; i < upTo; i++) {
        if (!lines[i].startsWith("{") || !lines[i].includes('"type":"user"')) continue;
        const row = JSON.parse(lines[i]);
        if (
          row.type === "user" && row.isSidechain !== true && row.isMeta !== true &&
          typeof row.message?.content === "string"
        ) {
          prompts.push(i);
        }
      }
      if (prompts.length < 3) continue;
      const build = (cut: number, previous: SessionSnapshot | null, builtBy: "checkpoint" | "pre-compact") =>
        buildSessionSnapshot(writeLines(lines.slice(0, cut).join("\n") + "\n", `${name}-${cut}.jsonl`), {
          sessionId,
          cwd,
          git: null,
          builtBy,
          previous,
          ...(builtBy === "checkpoint" ? { workingSet: [], reattachedFiles: false } : {}),
        });
      let previous: SessionSnapshot | null = null;
      const step = Math.max(1, Math.floor(prompts.length / 5));
      for (let k = step; k < prompts.length; k += step) previous = build(prompts[k], previous, "checkpoint");
      const continued = build(upTo, previous, "pre-compact");
      const whole = build(upTo, null, "pre-compact");
      if (!whole.transcript.reached_start) continue;
      assert.ok(continued.transcript.continues !== undefined, `${name}: continued`);
      assert.deepEqual(kept(continued), kept(whole), name);
      compared++;
    }
    assert.ok(compared >= 5, `compared on ${compared} real sessions`);
  });
});
