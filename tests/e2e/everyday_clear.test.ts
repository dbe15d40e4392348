// `/clear` in an ordinary repository (examples/everyday), with the real Claude Code client in
// interactive mode (tmux: `-p "/clear"` does not clear, see docs/e2e.md). Session A reads
// src/format.js, plans the fix with TaskCreate, edits src/format.js; then `/clear` and a prompt.
// The user asked for a clean slate: Claude Code starts session B (a new id, SessionStart
// `source: "clear"`) and rehydrate must not carry A over, so the first request after /clear holds
// no <session-context> and nothing of A's task. B then does its own work (its own task, an edit of
// test/format.test.js) and `/compact`s: the first request after it carries B's <session-context>
// exactly once, with B's request, and the follow-up with B's task (which the summary does not
// carry), and nothing of A's. A small capture hook beside ours records every hook
// input Claude Code sends, so the test asserts the client's behaviour too (source, session ids).
// Interactive mode also keeps the background Stop hook alive (print mode ends one still running
// when the session ends, which can be before it starts its work): B's checkpoint after its turn is
// what its PreCompact continues.
// Skipped, saying so, where tmux cannot run.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  count,
  E2e,
  firstAfterCompaction,
  isTurnRequest,
  type LoggedRequest,
  nonce,
  ourElements,
  requestText,
  ROOT,
  tmuxAvailable,
} from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

const TMUX = tmuxAvailable();
const OLD_TASK = "Fix rounding: sum integer cents in src/format.js";
const OLD_DESCRIPTION = "Floats drift: 0.1 + 0.2 is 0.30000000000000004. Convert to cents first.";
const OLD_REQUEST = "The totals are off by a cent sometimes. Find out why.";
const OLD_LATEST = "Now write the regression test for 0.1 + 0.2";
const NEW_TASK = "Cover formatTotal with an empty list in test/format.test.js";
const NEW_REQUEST = "Add a test for an empty list of prices";

/** A hook input as Claude Code sent it (the fields this file reads). */
interface HookInput {
  hook_event_name: string;
  session_id: string;
  source?: string;
  trigger?: string;
  transcript_path?: string;
}

/** What a saved snapshot or checkpoint holds (the fields this file reads). */
interface Saved {
  built_by?: string;
  created_at?: string;
  tasks?: { subject?: string }[];
  transcript?: { continues?: string };
}

describe("/clear in an ordinary repository under the real Claude Code client (tmux)", {
  skip: TMUX ? false : "tmux is not installed: /clear needs interactive mode",
}, () => {
  let e: E2e;
  let repo: string;
  let cleared: LoggedRequest[] = [];
  let compactRequest: LoggedRequest | null = null;
  let afterCompact: LoggedRequest | null = null;
  let checkpointB: Saved | null = null;
  let compactedB: Saved | null = null;
  const saved = (sessionId: string, kind: string): Saved | null => {
    const path = join(e.state, "sessions", `${sessionId}.${kind}.json`);
    return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null;
  };
  const marker = `after-clear-${nonce()}`;

  let inputs: () => HookInput[] = () => [];
  const events = (name: string): HookInput[] => inputs().filter((i) => i.hook_event_name === name);
  const stops = () => events("Stop").length;
  const sessionStarts = () => events("SessionStart");

  before(async () => {
    e = await E2e.start("everyday-clear");
    repo = e.workspace(join(ROOT, "examples", "everyday"));
    // A capture hook beside ours for the events this scenario waits on.
    inputs = e.captureHookInputs<HookInput>(repo, ["SessionStart", "PreCompact", "Stop", "UserPromptSubmit"]);
    const p = (rel: string) => join(repo, rel);

    await e.tmuxStart(repo);
    // Session A: the everyday work, a task and an edit.
    e.tmuxType(e.script(OLD_REQUEST, [
      { tool: "Read", input: { file_path: p("src/format.js") } },
      { tool: "TaskCreate", input: { subject: OLD_TASK, description: OLD_DESCRIPTION, activeForm: "Fixing rounding" } },
      { tool: "TaskUpdate", input: { taskId: "1", status: "in_progress" } },
      { tool: "Read", input: { file_path: p("src/parse.js") } },
      {
        tool: "Edit",
        input: {
          file_path: p("src/format.js"),
          old_string: "total += price;",
          new_string: "total += Math.round(price * 100);",
        },
      },
      { text: "format.js now sums integer cents." },
    ]));
    await e.waitFor(() => stops() >= 1, "session A's first turn", 60_000);
    e.tmuxType(e.script(OLD_LATEST, [{ text: "I'll add the test next." }]));
    await e.waitFor(() => stops() >= 2, "session A's second turn", 60_000);

    // The clean slate.
    e.tmuxType("/clear");
    await e.waitFor(() => sessionStarts().length >= 2, "SessionStart after /clear", 30_000);
    // Our SessionStart hook runs in parallel with the capture hook: give it time to finish.
    await new Promise((r) => setTimeout(r, 1500));
    let before = e.requests().length;
    // /clear redraws the screen and keys typed meanwhile are lost: type until the text shows.
    await e.tmuxSettle("a settled screen after /clear");
    await e.tmuxTypeSeen(e.script(`What next? ${marker}`, [{ text: "Let's see." }]), marker);
    await e.waitFor(() => stops() >= 3, "the turn after /clear", 60_000);
    cleared = e.requests().slice(before).filter(isTurnRequest);

    // Session B: its own work, then a compaction.
    e.tmuxType(e.script(NEW_REQUEST, [
      { tool: "Read", input: { file_path: p("test/format.test.js") } },
      {
        tool: "TaskCreate",
        input: { subject: NEW_TASK, description: "formatTotal([]) must print €0.", activeForm: "Covering empty" },
      },
      {
        tool: "Edit",
        input: {
          file_path: p("test/format.test.js"),
          old_string: `  assert.equal(formatTotal([1, 2]), "€3");`,
          new_string: `  assert.equal(formatTotal([1, 2]), "€3");\n  assert.equal(formatTotal([]), "€0");`,
        },
      },
      { text: "Added the empty-list case." },
    ]));
    await e.waitFor(() => stops() >= 4, "session B's work", 60_000);
    // The background Stop hook's checkpoint of B's turn: the client did not wait for it.
    const sessionB = sessionStarts()[1].session_id;
    await e.waitFor(
      () => saved(sessionB, "checkpoint")?.tasks?.some((t) => t.subject === NEW_TASK) === true,
      "session B's checkpoint",
      30_000,
    );
    checkpointB = saved(sessionB, "checkpoint");
    before = e.requests().length;
    e.tmuxType("/compact");
    await e.waitFor(
      () => sessionStarts().some((s) => s.source === "compact"),
      "SessionStart(compact) in session B",
      60_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    compactedB = saved(sessionB, "snapshot");
    const carryOn = `Carry on. [${nonce()}]`;
    await e.tmuxSettle("a settled screen after /compact");
    await e.tmuxTypeSeen(e.script(carryOn, [{ text: "Carrying on." }]), carryOn);
    await e.waitFor(() => stops() >= 5, "the turn after /compact", 60_000);
    const since = e.requests().slice(before);
    compactRequest = since.find((r) => r.kind === "compact-summary") ?? null;
    afterCompact = firstAfterCompaction(since);
    e.tmuxType("/exit");
    await new Promise((r) => setTimeout(r, 1500));
  });

  after(() => {
    e?.tmuxStop();
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test('the client: /clear starts a new session, SessionStart gets source "clear"', () => {
    const starts = sessionStarts();
    const summary = JSON.stringify(starts.map((s) => [s.source, s.session_id]));
    assert.ok(starts.length >= 3, `SessionStart startup, clear, compact expected: ${summary}`);
    assert.equal(starts[0].source, "startup", summary);
    assert.equal(starts[1].source, "clear", summary);
    assert.notEqual(starts[1].session_id, starts[0].session_id, `a new session id after /clear: ${summary}`);
    const compact = starts.find((s) => s.source === "compact")!;
    assert.equal(compact.session_id, starts[1].session_id, `the compaction is session B's: ${summary}`);
    assert.ok(
      events("PreCompact").every((s) => s.session_id === starts[1].session_id),
      `PreCompact ran for session B only: ${JSON.stringify(events("PreCompact"))}`,
    );
  });

  test("the first request after /clear carries no <session-context> and nothing of session A's task", () => {
    assert.ok(cleared.length >= 1, e.explain("a request after /clear", null));
    const first = cleared[0];
    const text = requestText(first);
    assert.ok(text.includes(marker), e.explain("the prompt typed after /clear", first, null));
    assert.equal(count(text, "<session-context"), 0, e.explain("no session-context", first, "session-context"));
    assert.deepEqual(ourElements(first), [], e.explain("none of our elements", first, "<"));
    for (const old of [OLD_TASK, OLD_DESCRIPTION, OLD_REQUEST, OLD_LATEST, "format.js now sums integer cents"]) {
      assert.ok(!text.includes(old), e.explain(`nothing of session A: ${JSON.stringify(old)}`, first, old));
    }
    assert.ok(!text.includes("MOCK SUMMARY MARKER"), e.explain("no compaction summary", first, "MOCK SUMMARY"));
    assert.equal(cleared.length, 1, e.explain(`one request, Stop did not block: ${cleared.length}`, cleared.at(-1)!));
  });

  test("the background Stop hook saved B's checkpoint after its turn, and B's PreCompact continued it", () => {
    assert.equal(checkpointB?.built_by, "checkpoint", e.debugLogTail());
    assert.ok(!checkpointB?.tasks?.some((t) => t.subject === OLD_TASK), "nothing of session A");
    assert.equal(compactedB?.built_by, "pre-compact", e.debugLogTail());
    assert.equal(compactedB?.transcript?.continues, checkpointB?.created_at, "read back only to it");
  });

  test("the compaction in session B asks to keep B's edited file and open tasks, nothing of A's", () => {
    assert.ok(compactRequest, e.explain("the compaction request", null));
    const text = requestText(compactRequest);
    const head = "rehydrate, to the summarizer of this conversation";
    const at = text.indexOf(head);
    assert.ok(at >= 0, e.explain("our summarizer instructions", compactRequest, "detailed summary"));
    const ours = text.slice(at, at + 1600);
    assert.ok(ours.includes('"test/format.test.js"'), e.explain("B's edited file", compactRequest, head));
    assert.ok(ours.includes("The open tasks"), e.explain("B's open tasks asked for", compactRequest, head));
    assert.ok(!ours.includes("src/format.js"), e.explain("not A's edited file", compactRequest, head));
    assert.ok(!text.includes(OLD_TASK), e.explain("A's task nowhere", compactRequest, OLD_TASK));
  });

  test("the first request after /compact in session B carries B's <session-context> once, and B's task, without A's", () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const text = requestText(afterCompact);
    const ours = ourElements(afterCompact).filter((x) => x.startsWith("<session-context"));
    const start = ours.filter((x) => !x.includes('part="after-summary"'));
    const gaps = ours.filter((x) => x.includes('part="after-summary"'));
    assert.equal(start.length, 1, e.explain("one session-context", afterCompact, "session-context"));
    assert.ok(start[0].includes(NEW_REQUEST), e.explain("B's request", afterCompact, "session-context"));
    assert.equal(gaps.length, 1, e.explain("one follow-up", afterCompact, 'part="after-summary"'));
    assert.ok(gaps[0].includes(NEW_TASK), e.explain("B's task", afterCompact, "after-summary"));
    for (const old of [OLD_TASK, OLD_DESCRIPTION, OLD_REQUEST, OLD_LATEST]) {
      for (const ctx of ours) {
        assert.ok(!ctx.includes(old), e.explain(`nothing of session A: ${JSON.stringify(old)}`, afterCompact, old));
      }
      assert.ok(!text.includes(old), e.explain(`A nowhere in the request: ${JSON.stringify(old)}`, afterCompact, old));
    }
    assert.ok(
      !ours.some((ctx) => /<file path="src\/format\.js"/.test(ctx)),
      e.explain("A's edit of src/format.js is not B's", afterCompact, "edited-files"),
    );
  });
});
