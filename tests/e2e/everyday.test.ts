// The everyday workflow: an ordinary repository with no special layout, driven by the real Claude
// Code client. The agent reads src/format.js, plans the fix with TaskCreate, reads src/parse.js,
// edits src/format.js, greps, and the user asks for the regression test; then `/compact`. We check
// what reached the model: the compaction request carries our instructions naming the open task and
// the file, and the first request after it carries <session-context> with the task verbatim, the
// user's latest request and the edited file, exactly once; a second compaction delivers again.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  count,
  E2e,
  firstAfterCompaction,
  type LoggedRequest,
  ourElements,
  requestText,
  ROOT,
  scripted,
} from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

const TASK = "Fix rounding: sum integer cents in src/format.js";
const LATEST = "Now write the regression test for 0.1 + 0.2";

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
      scripted("The totals are off by a cent sometimes. Find out why.", [
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
        { text: "format.js now sums integer cents." },
      ]),
    );
    const sessionId = first.sessionId;
    await e.claude(
      repo,
      scripted(LATEST, [
        { tool: "Read", input: { file_path: p("test/format.test.js") } },
        { text: "I'll add the test next." },
      ]),
      { resume: sessionId },
    );
    const compact = await e.claude(repo, "/compact", { resume: sessionId });
    compactRequest = compact.requests.find((r) => r.kind === "compact-summary") ?? null;
    const next = await e.claude(repo, scripted("Carry on.", [{ text: "Writing the test." }]), { resume: sessionId });
    afterCompact = firstAfterCompaction([...compact.requests, ...next.requests]);
    const more = await e.claude(repo, scripted("Anything else?", [{ text: "No." }]), { resume: sessionId });
    later = more.requests.find((r) => r.kind !== "title") ?? null;
    // 2.1.332: `--fork-session` continues the compacted session under a new id (SessionStart
    // `fork`); the 2.1.197 client resumes the same session instead.
    const fork = await e.claude(repo, scripted("Try it another way.", [{ text: "Forked." }]), {
      resume: sessionId,
      extraArgs: ["--fork-session"],
    });
    forkId = fork.sessionId;
    forked = fork.requests.find((r) => r.kind !== "title") ?? null;
    const second = await e.claude(repo, "/compact", { resume: sessionId });
    const after2 = await e.claude(repo, scripted("Go on.", [{ text: "Going on." }]), { resume: sessionId });
    afterSecond = firstAfterCompaction([...second.requests, ...after2.requests]);
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("the compaction request carries our instructions naming the open task and src/format.js", () => {
    assert.ok(compactRequest, e.explain("the compaction request", null));
    const text = requestText(compactRequest);
    const head = "rehydrate: when you summarize this conversation";
    const at = text.indexOf(head);
    assert.ok(at >= 0, e.explain("our summarizer instructions", compactRequest, "detailed summary"));
    const ours = text.slice(at, at + 1600);
    assert.ok(ours.includes(TASK), e.explain("the open task in the instructions", compactRequest, head));
    assert.ok(ours.includes("src/format.js"), e.explain("the edited file in the instructions", compactRequest, head));
  });

  test("the first request after /compact carries <session-context> once, with the task, the latest request and the files", () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const elements = ourElements(afterCompact).filter((x) => x.startsWith("<session-context"));
    assert.equal(elements.length, 1, e.explain("one session-context", afterCompact, "session-context"));
    const ctx = elements[0];
    assert.ok(ctx.includes(TASK), e.explain("the task verbatim", afterCompact, "session-context"));
    assert.match(ctx, /in[_ ]progress/, e.explain("the task's status", afterCompact, "session-context"));
    assert.ok(ctx.includes(LATEST), e.explain("the latest request", afterCompact, "session-context"));
    assert.ok(ctx.includes("src/format.js"), e.explain("the edited file", afterCompact, "session-context"));
  });

  test("a later request still holds it exactly once: delivered once, never again", () => {
    assert.ok(later, e.explain("a later request", null));
    assert.equal(
      count(requestText(later), "<session-context"),
      1,
      e.explain("one session-context later", later, "session-context"),
    );
  });

  test("a fork of the compacted session carries the delivered <session-context> once: replayed, never doubled", () => {
    assert.ok(forked, e.explain("the fork's request", null));
    assert.notEqual(forkId, "", "the fork has a session id");
    assert.equal(
      count(requestText(forked), "<session-context"),
      1,
      e.explain("one session-context", forked, "session-context"),
    );
    assert.ok(
      ourElements(forked).some((x) => x.includes(TASK)),
      e.explain("the task in the fork", forked, "session-context"),
    );
  });

  test("a second compaction in the same session delivers a fresh <session-context>, once", () => {
    assert.ok(afterSecond, e.explain("a request after the second compaction", null));
    assert.equal(
      count(requestText(afterSecond), "<session-context"),
      1,
      e.explain("one session-context", afterSecond, "session-context"),
    );
    assert.ok(
      ourElements(afterSecond).some((x) => x.includes(TASK)),
      e.explain("the task again", afterSecond, "session-context"),
    );
  });
});
