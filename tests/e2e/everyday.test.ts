// The everyday workflow: an ordinary repository with no special layout, driven by the real Claude
// Code client. The agent reads src/format.js, plans the fix with TaskCreate, reads src/parse.js,
// edits src/format.js, greps, runs the tests (which now fail for real), and the user asks for the
// regression test; then `/compact`. We check what reached the model: the compaction request carries
// our instructions with the failing test command and the edited file; the first request after it
// carries SessionStart's <session-context> once, with the user's latest request and the test
// command with its failure, and the first prompt's <session-context part="after-summary"> once,
// with the open task the mock's summary does not carry and none of the messages it quotes; a
// second compaction delivers both again.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { E2e, firstAfterCompaction, type LoggedRequest, ourElements, requestText, ROOT } from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

const TASK = "Fix rounding: sum integer cents in src/format.js";
const LATEST = "Now write the regression test for 0.1 + 0.2";
const FIRST = "The totals are off by a cent sometimes. Find out why.";
/** Fails for real after the edit: formatTotal([1, 2]) gives "€300" where the test wants "€3". */
const TEST_COMMAND = "npm test";

/** SessionStart's element and the first prompt's follow-up, told apart. */
function split(elements: string[]): { start: string[]; followUp: string[] } {
  const ours = elements.filter((x) => x.startsWith("<session-context"));
  return {
    start: ours.filter((x) => !x.includes('part="after-summary"')),
    followUp: ours.filter((x) => x.includes('part="after-summary"')),
  };
}

/** The compaction's summary as the mock wrote it: the reply to the compaction request. */
function summaryOf(request: LoggedRequest | null): string {
  return request === null ? "" : JSON.stringify(request.reply);
}

describe("an ordinary repository under the real Claude Code client", () => {
  let e: E2e;
  let repo: string;
  let compactRequest: LoggedRequest | null = null;
  let afterCompact: LoggedRequest | null = null;
  let later: LoggedRequest | null = null;
  let afterSecond: LoggedRequest | null = null;
  let forked: LoggedRequest | null = null;
  let forkId = "";

  before(async () => {
    e = await E2e.start("everyday");
    repo = e.workspace(join(ROOT, "examples", "everyday"));
    const p = (rel: string) => join(repo, rel);
    const first = await e.claude(
      repo,
      e.script(FIRST, [
        { tool: "Read", input: { file_path: p("src/format.js") } },
        {
          tool: "TaskCreate",
          input: {
            subject: TASK,
            description: "Floats drift: 0.1 + 0.2 is 0.30000000000000004. Convert to cents first.",
            activeForm: "Fixing rounding",
          },
        },
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
        { tool: "Bash", input: { command: "grep -rn formatTotal src test", description: "Find the callers" } },
        { tool: "Bash", input: { command: TEST_COMMAND, description: "Run the tests" } },
        { text: "format.js now sums integer cents; the test still expects euros." },
      ]),
    );
    const sessionId = first.sessionId;
    await e.claude(
      repo,
      e.script(LATEST, [
        { tool: "Read", input: { file_path: p("test/format.test.js") } },
        { text: "I'll add the test next." },
      ]),
      { resume: sessionId },
    );
    const compact = await e.claude(repo, "/compact", { resume: sessionId });
    compactRequest = compact.requests.find((r) => r.kind === "compact-summary") ?? null;
    const next = await e.claude(repo, e.script("Carry on.", [{ text: "Writing the test." }]), { resume: sessionId });
    afterCompact = firstAfterCompaction([...compact.requests, ...next.requests]);
    const more = await e.claude(repo, e.script("Anything else?", [{ text: "No." }]), { resume: sessionId });
    later = more.requests.find((r) => r.kind !== "title") ?? null;
    // 2.1.332: `--fork-session` continues the compacted session under a new id (SessionStart
    // `fork`); the 2.1.197 client resumes the same session instead.
    const fork = await e.claude(repo, e.script("Try it another way.", [{ text: "Forked." }]), {
      resume: sessionId,
      extraArgs: ["--fork-session"],
    });
    forkId = fork.sessionId;
    forked = fork.requests.find((r) => r.kind !== "title") ?? null;
    const second = await e.claude(repo, "/compact", { resume: sessionId });
    const after2 = await e.claude(repo, e.script("Go on.", [{ text: "Going on." }]), { resume: sessionId });
    afterSecond = firstAfterCompaction([...second.requests, ...after2.requests]);
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("the compaction request carries our instructions with the failing test command and the edited file", () => {
    assert.ok(compactRequest, e.explain("the compaction request", null));
    const text = requestText(compactRequest);
    const head = "rehydrate, to the summarizer of this conversation";
    const at = text.indexOf(head);
    assert.ok(at >= 0, e.explain("our summarizer instructions", compactRequest, "detailed summary"));
    const ours = text.slice(at, at + 1600);
    assert.ok(ours.includes(`"${TEST_COMMAND}" (exit 1`), e.explain("the test command", compactRequest, head));
    assert.ok(ours.includes("src/format.js"), e.explain("the edited file in the instructions", compactRequest, head));
  });

  test("the first request after /compact carries <session-context> once, with the latest request and the failing test command", () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const { start } = split(ourElements(afterCompact));
    assert.equal(start.length, 1, e.explain("one session-context", afterCompact, "session-context"));
    const ctx = start[0];
    assert.ok(ctx.includes(LATEST), e.explain("the latest request", afterCompact, "session-context"));
    assert.match(
      ctx,
      /<command exit="1" failure="[^"]*formatTotal adds the prices[^"]*">npm test<\/command>/,
      e.explain("the test command and its failure", afterCompact, "session-context"),
    );
    // What the summary carries is left to it: no task list and no file list in this element.
    assert.ok(!ctx.includes("<tasks") && !ctx.includes("<edited-files"), e.explain("nothing else", afterCompact, ctx));
  });

  test("the first prompt after it adds the open task the summary lacks, and nothing the summary says", () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const { followUp } = split(ourElements(afterCompact));
    assert.equal(followUp.length, 1, e.explain("one follow-up", afterCompact, 'part="after-summary"'));
    const gaps = followUp[0];
    assert.ok(gaps.includes(TASK), e.explain("the open task", afterCompact, "after-summary"));
    assert.match(gaps, /in[_ ]progress/, e.explain("the task's status", afterCompact, "after-summary"));
    const summary = summaryOf(compactRequest);
    assert.ok(summary.includes(FIRST), "the mock's summary quotes the first request");
    assert.ok(!gaps.includes(FIRST), e.explain("not the request the summary quotes", afterCompact, "after-summary"));
    assert.ok(!summary.includes(TASK), "the mock's summary does not carry the task");
  });

  test("a later request still holds each exactly once: delivered once, never again", () => {
    assert.ok(later, e.explain("a later request", null));
    const { start, followUp } = split(ourElements(later));
    assert.equal(start.length, 1, e.explain("one session-context later", later, "session-context"));
    assert.equal(followUp.length, 1, e.explain("one follow-up later", later, 'part="after-summary"'));
  });

  test("a fork of the compacted session carries the delivered elements once each: replayed, never doubled", () => {
    assert.ok(forked, e.explain("the fork's request", null));
    assert.notEqual(forkId, "", "the fork has a session id");
    const { start, followUp } = split(ourElements(forked));
    assert.equal(start.length, 1, e.explain("one session-context", forked, "session-context"));
    assert.equal(followUp.length, 1, e.explain("one follow-up", forked, 'part="after-summary"'));
    assert.ok(followUp[0].includes(TASK), e.explain("the task in the fork", forked, "after-summary"));
  });

  test("a second compaction in the same session delivers both afresh, once each", () => {
    assert.ok(afterSecond, e.explain("a request after the second compaction", null));
    const { start, followUp } = split(ourElements(afterSecond));
    assert.equal(start.length, 1, e.explain("one session-context", afterSecond, "session-context"));
    assert.ok(start[0].includes(TEST_COMMAND), e.explain("the command again", afterSecond, "session-context"));
    assert.equal(followUp.length, 1, e.explain("one follow-up", afterSecond, 'part="after-summary"'));
    assert.ok(followUp[0].includes(TASK), e.explain("the task again", afterSecond, "after-summary"));
  });
});
