// The parts of the after-compaction payload: what summaries lack (the bare reply's question, the
// plan file), what a summary already carries, the summary read back from the transcript, and the
// follow-up that gives what it left out.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isBareReply } from "../../../lib/session/bare_reply.ts";
import { constraintTracker } from "../../../lib/session/constraints.ts";
import { clientTaskList } from "../../../lib/session/task_files.ts";
import { buildSessionSnapshot } from "../../../lib/session/snapshot.ts";
import { planFileTracker } from "../../../lib/session/plan_file.ts";
import { summaryCoverage } from "../../../lib/session/summary_coverage.ts";
import { renderSummaryGaps } from "../../../lib/session/summary_gaps.ts";
import type { SessionSnapshot } from "../../../lib/session/snapshot.ts";
import { compactSummary } from "../../../lib/transcript/compact_summary.ts";
import { callRow, cleanup, createTask, newestFirst, tempDir, userRow, writeRows } from "./_fixtures.ts";

after(cleanup);

describe("isBareReply()", () => {
  test("isBareReply() knows answers that need their question", () => {
    for (
      const t of [
        "yes",
        "Yes, please do",
        "1+2",
        "2=",
        "let's try 2=",
        "go with option b",
        "both",
        "the second one",
        "ok",
      ]
    ) {
      assert.equal(isBareReply(t), true, t);
    }
  });
  test("isBareReply() leaves out requests that stand alone", () => {
    for (
      const t of [
        "fix the flaky login test",
        "which commit?",
        "now run the linter",
        "known issue, skip it",
        "no wait, so this branch adds agent to logging, and so far we only added it in the hooks",
        "yes\nand also update the docs",
      ]
    ) assert.equal(isBareReply(t), false, t);
  });
});

describe("planFileTracker()", () => {
  test("planFileTracker() points at the newest plan file the session wrote, when it exists inside the project", () => {
    const project = tempDir("rehydrate-plan-");
    mkdirSync(join(project, "docs", "plans"), { recursive: true });
    writeFileSync(join(project, "docs", "plans", "cache.md"), "# Plan\n");
    const t = planFileTracker({ projectDir: project });
    const rows = [
      callRow("w1", "Write", { file_path: join(project, "docs", "plans", "cache.md"), content: "# Plan" }),
      callRow("r1", "Read", { file_path: join(project, "src", "a.ts") }),
    ];
    for (const row of newestFirst(rows)) t.add(row);
    assert.equal(t.result(), "docs/plans/cache.md");
  });

  test("planFileTracker() names the client's plan file by the approved plan's slug, with ~ for home", () => {
    const home = tempDir("rehydrate-home-");
    const config = join(home, ".claude");
    mkdirSync(join(config, "plans"), { recursive: true });
    writeFileSync(join(config, "plans", "quiet-blue-river.md"), "# Plan\n");
    const t = planFileTracker({ projectDir: join(home, "app"), claudeConfigDir: config, homeDir: home });
    t.add(
      userRow("Implement the following plan:\n\n# Plan: X", { planContent: "# Plan: X", slug: "quiet-blue-river" }),
    );
    assert.equal(t.result(), "~/.claude/plans/quiet-blue-river.md");
  });

  test("planFileTracker() names no file that is gone, outside the project, or only in free text", () => {
    const project = tempDir("rehydrate-plan-");
    const gone = planFileTracker({ projectDir: project });
    gone.add(callRow("w", "Write", { file_path: join(project, "PLAN.md"), content: "x" }));
    assert.equal(gone.result(), undefined);

    const outside = planFileTracker({ projectDir: project, isFile: () => true });
    outside.add(callRow("w", "Write", { file_path: "/etc/plan.md", content: "x" }));
    assert.equal(outside.result(), undefined);

    const text = planFileTracker({ projectDir: project, isFile: () => true });
    text.add(userRow(`see ${project}/PLAN.md`));
    assert.equal(text.result(), undefined);

    const hostile = planFileTracker({ projectDir: project, claudeConfigDir: "/c", isFile: () => true });
    hostile.add(userRow("x", { planContent: "x", slug: "../../etc/passwd" }));
    assert.equal(hostile.result(), undefined);
  });
});

describe("summaryCoverage()", () => {
  const summary = [
    "1. Primary Request and Intent:",
    "   The user asked to fix rounding in `src/format.js`.",
    "6. All user messages:",
    '   - "Now write the regression test for 0.1 + 0.2"',
    "7. Pending Tasks:",
    "   - Add a regression test for 0.1 + 0.2 (pending)",
  ].join("\n");
  const covered = summaryCoverage(summary);

  test("summaryCoverage() sees a message quoted, a file named and a task carried", () => {
    assert.equal(covered.quotes("Now write the regression test for 0.1 + 0.2"), true);
    assert.equal(covered.names("src/format.js"), true);
    assert.equal(covered.names("/home/me/app/src/format.js"), true);
    assert.equal(covered.carries("Add a regression test for 0.1 + 0.2"), true);
    assert.equal(covered.carries("Fix rounding in format.js"), true);
  });

  test("summaryCoverage() does not count a paraphrase, another file or another task", () => {
    assert.equal(covered.quotes("please don't amend commits"), false);
    assert.equal(covered.names("test/format.test.js"), false);
    assert.equal(covered.names("format"), false);
    assert.equal(covered.carries("Publish the release notes to the website"), false);
  });

  test("summaryCoverage() counts a long message quoted when its head and its tail are", () => {
    const long = "Here is the log: " + "x ".repeat(400) + "why does it fail?";
    assert.equal(summaryCoverage(`User said: ${long}`).quotes(long), true);
    assert.equal(summaryCoverage(`User said: ${long.slice(0, 200)}…`).quotes(long), false);
  });
});

describe("compactSummary()", () => {
  const boundary = { type: "system", subtype: "compact_boundary", compactMetadata: { trigger: "manual" } };
  const summaryRow = (text: string) =>
    userRow(`This session is being continued from a previous conversation. ${text}`, { isCompactSummary: true });

  test("compactSummary() reads the summary row of the newest compaction", () => {
    const path = writeRows([summaryRow("old"), boundary, summaryRow("new"), userRow("next")]);
    assert.match(compactSummary(path, 1 << 20) ?? "", /new$/);
  });

  test("compactSummary() gives nothing when the newest boundary has no summary yet", () => {
    assert.equal(compactSummary(writeRows([boundary, summaryRow("old"), boundary]), 1 << 20), undefined);
    assert.equal(compactSummary(writeRows([userRow("no compaction")]), 1 << 20), undefined);
    assert.equal(compactSummary(join(tempDir(), "missing.jsonl"), 1 << 20), undefined);
  });
});

describe("renderSummaryGaps()", () => {
  const base = (project: string): SessionSnapshot => ({
    ...emptySnapshot(project),
    tasks_source: "task",
    tasks: [
      { source: "task", id: "1", status: "completed", subject: "Sketch the --json output" },
      { source: "task", id: "2", status: "in_progress", subject: "Cover --json in test/report.test.ts" },
      { source: "task", id: "3", status: "pending", subject: "Publish the release notes to the website" },
    ],
    tasks_omitted: 0,
    user_requests: [
      { text: "now run the whole suite" },
      { text: "please don't amend commits" },
      { text: "Add a --json flag to the report command" },
    ],
    edited_files: [{ path: "src/report.ts" }, { path: "src/format.ts" }, { path: "src/gone.ts" }, {
      path: "/etc/hosts",
    }],
    edited_files_total: 4,
    working_set: [],
    reattached_files: [],
    reattached_source: "predicted",
  });
  const summary = [
    "Primary Request: Add a --json flag to the report command.",
    "Files: src/report.ts",
    "Pending Tasks: Cover --json in test/report.test.ts (in progress)",
    'All user messages: "now run the whole suite"',
  ].join("\n");

  test("renderSummaryGaps() gives only the open tasks, messages and existing files the summary lacks", () => {
    const project = tempDir("rehydrate-gaps-");
    mkdirSync(join(project, "src"));
    for (const f of ["report.ts", "format.ts"]) writeFileSync(join(project, "src", f), "x");
    const xml = renderSummaryGaps(base(project), summary, { projectDir: project });
    assert.match(xml, /^<session-context source="rehydrate" part="after-summary"/);
    assert.deepEqual([...xml.matchAll(/<subject>([^<]*)<\/subject>/g)].map((m) => m[1]), [
      "Publish the release notes to the website",
    ]);
    assert.deepEqual([...xml.matchAll(/<request[^>]*>([^<]*)<\/request>/g)].map((m) => m[1]), [
      "please don't amend commits",
    ]);
    assert.deepEqual([...xml.matchAll(/<file path="([^"]*)"/g)].map((m) => m[1]), ["src/format.ts"]);
    assert.ok(!xml.includes('latest="true"'), "SessionStart gave the latest request");
  });

  test("renderSummaryGaps() gives nothing when the summary carries everything", () => {
    const project = tempDir("rehydrate-gaps-");
    const s = base(project);
    s.tasks = s.tasks.slice(0, 2);
    s.user_requests = s.user_requests.slice(0, 1);
    s.edited_files = [{ path: "src/report.ts" }];
    assert.equal(renderSummaryGaps(s, summary, { projectDir: project, isFile: () => true }), "");
  });
});

describe("constraintTracker()", () => {
  test("constraintTracker() keeps the user's standing instructions, not descriptions or questions", () => {
    const t = constraintTracker({ skip: 1 });
    const rows = [
      userRow("Write the plan to a temporary plan file, don't commit."),
      userRow("I don't think unit tests are the solution here. Please don't amend commits."),
      userRow("This causes the helper to always return 0. Should we never retry?"),
      userRow("Do not fall back: print a warning instead."),
      userRow("now fix it, and never push to main"),
    ];
    for (const row of newestFirst(rows)) t.add(row);
    // The newest message is a latest request, quoted whole: skipped.
    assert.deepEqual(t.result(), [
      "Do not fall back: print a warning instead.",
      "Please don't amend commits.",
      "Write the plan to a temporary plan file, don't commit.",
    ]);
  });

  test("constraintTracker() leaves out pastes and keeps a previous snapshot's rules after its own", () => {
    const t = constraintTracker();
    for (
      const row of newestFirst([
        userRow("Never force-push. " + "log line\n".repeat(400)),
        userRow("always run the linter first"),
      ])
    ) {
      t.add(row);
    }
    t.older(["please don't amend commits", "always run the linter first"]);
    assert.deepEqual(t.result(), ["always run the linter first", "please don't amend commits"]);
  });

  test("the follow-up gives a rule the summary does not quote, and not one it does", () => {
    const project = tempDir("rehydrate-gaps-");
    const s: SessionSnapshot = {
      ...emptySnapshot(project),
      constraints: ["please don't amend commits", "always run the linter first"],
    };
    const xml = renderSummaryGaps(s, 'The user said: "always run the linter first".', { projectDir: project });
    assert.deepEqual([...xml.matchAll(/<constraint>([^<]*)<\/constraint>/g)].map((m) => m[1]), [
      "please don't amend commits",
    ]);
  });
});

/** A snapshot of `project` that holds nothing yet. */
function emptySnapshot(project: string): SessionSnapshot {
  return {
    schema_version: 1,
    session_id: "s",
    created_at: "2026-11-21T10:00:00.000Z",
    built_by: "pre-compact",
    cwd: project,
    transcript: { bytes_read: 0, reached_start: true },
    git: null,
    tasks_source: null,
    tasks: [],
    tasks_omitted: 0,
    user_requests: [],
    edited_files: [],
    edited_files_total: 0,
    working_set: [],
    reattached_files: [],
    reattached_source: "predicted",
  };
}

describe("the client's task files", () => {
  const write = (dir: string, name: string, value: unknown) =>
    writeFileSync(join(dir, name), typeof value === "string" ? value : JSON.stringify(value));

  test("clientTaskList() reads the task list Claude Code keeps on disk, open ones first when cut", () => {
    const config = tempDir("rehydrate-config-");
    const dir = join(config, "tasks", "sess-1");
    mkdirSync(dir, { recursive: true });
    write(dir, "2.json", { id: "2", subject: "Write the printer", status: "in_progress", blockedBy: ["1"] });
    write(dir, "1.json", { id: "1", subject: "Write the parser", description: "ABNF first", status: "completed" });
    write(dir, "10.json", { id: "10", subject: "Ship it", status: "pending", activeForm: "Shipping" });
    write(dir, "3.json", "{ not json");
    write(dir, "4.json", { id: "4", subject: "odd", status: "deleted" });
    write(dir, ".lock", "");
    const list = clientTaskList(config, "sess-1")!;
    assert.deepEqual(list.tasks.map((t) => [t.id, t.status, t.subject]), [
      ["1", "completed", "Write the parser"],
      ["2", "in_progress", "Write the printer"],
      ["10", "pending", "Ship it"],
    ]);
    assert.deepEqual(list.tasks[1].blocked_by, ["1"]);
    assert.ok(list.tasks.every((t) => typeof t.updated_at === "string"));
    assert.deepEqual(clientTaskList(config, "sess-1", { maxTasks: 1 })!.tasks.map((t) => t.id), ["2"]);
  });

  test("clientTaskList() names no folder out of tasks/ and reads no link", () => {
    const config = tempDir("rehydrate-config-");
    mkdirSync(join(config, "tasks", "s"), { recursive: true });
    write(join(config, "tasks"), "x.json", { id: "1", subject: "outside", status: "pending" });
    for (const id of ["..", "../tasks", "a/b", ""]) assert.equal(clientTaskList(config, id), null, id);
    symlinkSync(join(config, "tasks", "x.json"), join(config, "tasks", "s", "1.json"));
    assert.equal(clientTaskList(config, "s"), null);
  });

  test("buildSessionSnapshot() takes the client's task files over the transcript, and the follow-up dates them", () => {
    const config = tempDir("rehydrate-config-");
    const dir = join(config, "tasks", "s");
    mkdirSync(dir, { recursive: true });
    // A subagent closed task 1 (no TaskUpdate in the main transcript); task 2 exists only on disk.
    write(dir, "1.json", { id: "1", subject: "Write the parser", status: "completed" });
    write(dir, "2.json", { id: "2", subject: "Publish the parser to the registry", status: "pending" });
    const rows = [userRow("build the parser"), ...createTask("1", "Write the parser"), userRow("and publish it")];
    const s = buildSessionSnapshot(writeRows(rows), { sessionId: "s", git: null, claudeConfigDir: config });
    assert.deepEqual(s.tasks.map((t) => [t.id, t.status]), [["1", "completed"], ["2", "pending"]]);
    const gaps = renderSummaryGaps(s, "Summary: the parser is written.", { projectDir: tempDir() });
    assert.match(gaps, /<task id="2" status="pending" updated="during the latest request">/);
  });
});
