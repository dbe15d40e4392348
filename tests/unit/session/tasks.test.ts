import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { isOpenTask, MAX_SESSION_TASKS, sessionTasks } from "../../../lib/session/tasks.ts";
import { scanTranscript } from "../../../lib/transcript/scan_transcript.ts";
import {
  callRow,
  cleanup,
  createTask,
  devTranscript,
  newestFirst,
  resultRow,
  secretsByKind,
  updateTask,
} from "./_fixtures.ts";

after(cleanup);

const brief = (path: string) =>
  sessionTasks(scanTranscript(path)).tasks.map((t) => `${t.id ?? "-"} ${t.status} ${t.subject}`);

describe("sessionTasks() on real transcripts", () => {
  test("sessionTasks() rebuilds the TaskCreate/TaskUpdate list a session had when it was compacted", () => {
    const path = devTranscript("24a274a3", true);
    assert.deepEqual(brief(path), [
      "1 completed Add SessionContent struct and ReadSessionContent method",
      "2 completed Update ReadCommitted signature and implementation",
      "3 completed Update GetTranscript and GetSessionLog to use new pattern",
      "4 in_progress Update all callers of ReadCommitted",
      "5 pending Delete unused types and update tests",
    ]);
    const list = sessionTasks(scanTranscript(path));
    assert.equal(list.source, "task");
    assert.equal(
      list.tasks[3].description,
      "Update callers in explain.go, manual_commit_rewind.go, auto_commit.go, and manual_commit_condensation.go to work with CheckpointSummary + ReadSessionContent.",
    );
    assert.equal(list.tasks[3].active_form, "Updating ReadCommitted callers");
  });

  test("sessionTasks() follows a second session's tasks through the compaction, a TaskList and to the end", () => {
    assert.deepEqual(brief(devTranscript("1a289c77", true)), [
      "1 completed Write tests for phase transition wiring in hook handlers",
      "2 in_progress Wire Transition() into InitializeSession (EventTurnStart)",
      "3 pending Wire Transition() into commitWithMetadata (EventTurnEnd/Stop)",
      "4 pending Wire Transition() into markSessionEnded (EventSessionStop)",
      "5 pending Wire Transition() into handleSessionStartCommon (EventSessionStart)",
      "6 pending Run fmt, lint, and full test suite",
    ]);
    const full = sessionTasks(scanTranscript(devTranscript("1a289c77", false)));
    assert.equal(full.tasks.length, 6);
    assert.ok(full.tasks.every((t) => t.status === "completed"));
  });

  test("sessionTasks() keeps the blockers set with addBlockedBy", () => {
    const { tasks } = sessionTasks(scanTranscript(devTranscript("0c275b1b", false)));
    assert.deepEqual(tasks.map((t) => [t.id, t.status, t.blocked_by ?? []]), [
      ["1", "in_progress", []],
      ["2", "in_progress", ["1"]],
      ["3", "pending", ["2"]],
    ]);
    assert.equal(tasks[2].subject, "Task 3: Simplify Transcript Tracking");
  });

  test("sessionTasks() takes the newest TodoWrite list when the session used TodoWrite", () => {
    const cut = sessionTasks(scanTranscript(devTranscript("375d5d79", true)));
    assert.equal(cut.source, "todo");
    assert.deepEqual(cut.tasks.filter(isOpenTask).map((t) => `${t.status} ${t.subject}`), [
      "in_progress Fix compilation errors from field access",
      "pending Remove MustCheckpointID usage",
      "pending Run tests",
    ]);
    assert.equal(cut.tasks.length, 8);
    assert.equal(cut.tasks[0].id, undefined);
    const full = sessionTasks(scanTranscript(devTranscript("375d5d79", false)));
    assert.deepEqual(full.tasks.filter(isOpenTask).map((t) => `${t.status} ${t.subject}`), [
      "in_progress Remove MustCheckpointID usage",
      "pending Run tests",
    ]);
  });
});

describe("sessionTasks() rules", () => {
  test("sessionTasks() ignores a failed update and drops a deleted task", () => {
    const rows = [
      ...createTask("1", "First"),
      ...createTask("2", "Second"),
      ...updateTask({ taskId: "1", status: "completed" }, { error: true }),
      ...updateTask({ taskId: "2", status: "deleted" }),
      ...updateTask({ taskId: "9", status: "completed" }, { error: true }),
    ];
    assert.deepEqual(sessionTasks(newestFirst(rows)).tasks.map((t) => [t.id, t.status, t.subject]), [[
      "1",
      "pending",
      "First",
    ]]);
  });

  test("sessionTasks() lets the newest update of a field win and keeps the creation's other fields", () => {
    const rows = [
      ...createTask("1", "Old subject", "The description"),
      ...updateTask({ taskId: "1", status: "in_progress", subject: "Middle subject" }),
      ...updateTask({ taskId: "1", subject: "New subject" }),
    ];
    const [t] = sessionTasks(newestFirst(rows)).tasks;
    assert.deepEqual([t.subject, t.status, t.description], ["New subject", "in_progress", "The description"]);
  });

  test("sessionTasks() dates each task by the newest row that created or changed it, not by a listing", () => {
    const rows = [
      ...createTask("1", "Write the parser"),
      ...createTask("2", "Write the printer"),
      ...updateTask({ taskId: "1", status: "in_progress" }),
    ];
    const tasks = sessionTasks(newestFirst(rows)).tasks;
    assert.equal(tasks.find((t) => t.id === "1")?.updated_at, rows[4].timestamp);
    assert.equal(tasks.find((t) => t.id === "2")?.updated_at, rows[2].timestamp);
  });

  test("sessionTasks() keeps a task whose creation lies beyond the rows read, without a subject", () => {
    const rows = [...updateTask({ taskId: "7", status: "in_progress" })];
    assert.deepEqual(sessionTasks(newestFirst(rows)).tasks, [{
      source: "task",
      id: "7",
      status: "in_progress",
      subject: "",
      updated_at: rows[0].timestamp,
    }]);
  });

  test("sessionTasks() treats tasks missing from the newest TaskList as gone", () => {
    const rows = [
      ...createTask("1", "Kept"),
      ...createTask("2", "Gone"),
      callRow("toolu_list", "TaskList", {}),
      resultRow("toolu_list", "#1 [pending] Kept", {
        detail: { tasks: [{ id: "1", subject: "Kept", status: "pending", blockedBy: [] }] },
      }),
      ...createTask("3", "Created after the list"),
    ];
    assert.deepEqual(sessionTasks(newestFirst(rows)).tasks.map((t) => t.subject), ["Kept", "Created after the list"]);
  });

  test("sessionTasks() lets the tool used last win when a session used both TodoWrite and the task tools", () => {
    const todo = [
      callRow("toolu_todo", "TodoWrite", { todos: [{ content: "A todo", status: "pending", activeForm: "Doing" }] }),
    ];
    const tasks = createTask("1", "A task");
    assert.equal(sessionTasks(newestFirst([...todo, ...tasks])).source, "task");
    assert.equal(sessionTasks(newestFirst([...tasks, ...todo])).source, "todo");
    assert.deepEqual(sessionTasks(newestFirst([...tasks, ...todo])).tasks.map((t) => t.subject), ["A todo"]);
    assert.deepEqual(sessionTasks([]), { source: null, tasks: [], omitted: 0 });
  });

  test("sessionTasks() reads the id from the result text when the row has no toolUseResult", () => {
    const rows = [
      callRow("toolu_c", "TaskCreate", { subject: "S", description: "D" }),
      resultRow("toolu_c", "Task #12 created successfully: S"),
    ];
    assert.equal(sessionTasks(newestFirst(rows)).tasks[0].id, "12");
  });

  test("sessionTasks() ignores a sidechain's task calls", () => {
    const rows = [callRow("toolu_side", "TaskCreate", { subject: "Subagent task" }, { isSidechain: true })];
    assert.equal(sessionTasks(newestFirst(rows)).tasks.length, 0);
  });
});

describe("sessionTasks() bounds", () => {
  test("sessionTasks() keeps at most 50 tasks, open ones first, with capped text", () => {
    const rows = [];
    const huge = "x".repeat(1_000_000);
    for (let i = 1; i <= 1000; i++) rows.push(...createTask(String(i), `Task ${i} ${huge}`, huge));
    for (let i = 1; i <= 990; i++) rows.push(...updateTask({ taskId: String(i), status: "completed" }));
    const list = sessionTasks(newestFirst(rows));
    assert.equal(list.tasks.length, MAX_SESSION_TASKS);
    assert.equal(list.omitted, 950);
    const open = list.tasks.filter(isOpenTask);
    assert.deepEqual(open.map((t) => t.id), ["991", "992", "993", "994", "995", "996", "997", "998", "999", "1000"]);
    assert.deepEqual(list.tasks.filter((t) => !isOpenTask(t)).map((t) => t.id).slice(-2), ["989", "990"]);
    for (const t of list.tasks) {
      assert.ok(t.subject.length <= 300 && (t.description ?? "").length <= 2000);
      assert.equal(t.truncated, true);
    }
  });

  test("sessionTasks() redacts secrets in subjects and descriptions", () => {
    const secrets = secretsByKind();
    const token = secrets.get("github-token")!;
    const key = secrets.get("anthropic-key")!;
    const list = sessionTasks(newestFirst(createTask("1", `Rotate ${token}`, `export ANTHROPIC_API_KEY=${key}`)));
    const json = JSON.stringify(list);
    assert.ok(!json.includes(token) && !json.includes(key), json);
    assert.match(list.tasks[0].subject, /\[REDACTED:github-token\]/);
  });
});
