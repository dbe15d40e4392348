// Automatic compaction in an ordinary repository (examples/everyday), driven by the real Claude
// Code client: the agent plans the fix with TaskCreate and edits src/format.js; a turn reports
// usage past the auto-compact threshold, and the user's next prompt sets off the compaction.
// Claude Code writes that prompt to the transcript after PreCompact read it, so the snapshot
// PreCompact saved is stale by one typed message: SessionStart(compact) brings it up to date
// (reading only back to the snapshot, its working set kept) and the first request after the
// compaction must carry <session-context> exactly once, with that prompt as the latest request. The
// open task, which the compaction's summary does not carry, comes once with the next prompt (the
// first that can read the summary).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { E2e, firstAfterCompaction, isTurnRequest, type LoggedRequest, ourElements, ROOT } from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

const TASK = "Fix rounding: sum integer cents in src/format.js";
const TRIGGER = "Now write the regression test for 0.1 + 0.2";
const ENV = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000" };

describe("automatic compaction in an ordinary repository under the real Claude Code client", () => {
  let e: E2e;
  let compaction: LoggedRequest | null = null;
  let next: LoggedRequest | null = null;
  let following: LoggedRequest | null = null;
  let log = "";
  let saved: { built_by?: string; user_requests?: { text: string }[] } | null = null;

  before(async () => {
    e = await E2e.start("everyday-auto");
    const repo = e.workspace(join(ROOT, "examples", "everyday"));
    const p = (rel: string) => join(repo, rel);
    const first = await e.claude(
      repo,
      e.script("The totals are off by a cent sometimes. Find out why.", [
        { tool: "Read", input: { file_path: p("src/format.js") } },
        { tool: "TaskCreate", input: { subject: TASK, description: "Convert to cents first.", activeForm: "Fixing" } },
        { tool: "TaskUpdate", input: { taskId: "1", status: "in_progress" } },
        {
          tool: "Edit",
          input: {
            file_path: p("src/format.js"),
            old_string: "total += price;",
            new_string: "total += Math.round(price * 100);",
          },
        },
        { text: "format.js now sums integer cents." },
      ]),
      { env: ENV },
    );
    await e.claude(
      repo,
      e.script("Check the parser too.", [
        { tool: "Read", input: { file_path: p("src/parse.js") } },
        { text: "The parser is fine.", usage: 172_000 },
      ]),
      { resume: first.sessionId, env: ENV },
    );
    const run = await e.claude(repo, e.script(TRIGGER, [{ text: "Writing the test." }]), {
      resume: first.sessionId,
      env: ENV,
    });
    compaction = run.requests.find((r) => r.kind === "compact-summary") ?? null;
    next = firstAfterCompaction(run.requests);
    const go = await e.claude(repo, e.script("Go on.", [{ text: "Going on." }]), { resume: first.sessionId, env: ENV });
    following = go.requests.find(isTurnRequest) ?? null;
    const path = join(e.state, "debug.log");
    log = existsSync(path) ? readFileSync(path, "utf8") : "";
    const snapshotPath = join(e.state, "sessions", `${first.sessionId}.snapshot.json`);
    saved = existsSync(snapshotPath) ? JSON.parse(readFileSync(snapshotPath, "utf8")) : null;
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("the prompt past the threshold sets off an automatic compaction", () => {
    assert.ok(compaction, e.explain("the compaction request", null));
    assert.ok(next, e.explain("a request after the compaction", null));
  });

  test("the first request after it carries <session-context> once, with the prompt that set it off", () => {
    const elements = ourElements(next!).filter((x) => x.startsWith("<session-context"));
    assert.equal(elements.length, 1, e.explain("one session-context", next, "session-context"));
    const ctx = elements[0];
    assert.ok(
      ctx.includes(`<request latest="true">${TRIGGER}`),
      e.explain("the prompt that set off the compaction, as the latest request", next, "session-context"),
    );
  });

  test("the next prompt adds the open task the summary does not carry, once", () => {
    assert.ok(following, e.explain("the next prompt's request", null));
    const gaps = ourElements(following!).filter((x) => x.includes('part="after-summary"'));
    assert.equal(gaps.length, 1, e.explain("one follow-up", following, 'part="after-summary"'));
    assert.ok(gaps[0].includes(TASK), e.explain("the task verbatim", following, "after-summary"));
    assert.match(gaps[0], /in[_ ]progress/, e.explain("the task's status", following, "after-summary"));
  });

  test("SessionStart brought PreCompact's snapshot up to date without ranking the files again", () => {
    // The client usually writes the prompt after PreCompact read the transcript (2.1.332): the
    // snapshot is then stale by that one typed message, and a full rebuild would rank the files
    // again. When its write lands first (or a later PreCompact ran: the client can also summarize
    // ahead), the saved snapshot is PreCompact's and already current. Either way there is no full
    // rebuild, and the snapshot SessionStart used has the prompt as the latest request.
    assert.ok(!log.includes("session: snapshot rebuilt from the transcript"), `no full rebuild\n${e.debugLogTail()}`);
    // The scripted prompt carries the mock server's script after the words typed.
    assert.ok(saved?.user_requests?.[0]?.text.startsWith(TRIGGER), "the saved snapshot's latest request");
    const updated = log.includes(
      "session: snapshot updated from the transcript (only typed messages since it: working set kept)",
    );
    assert.equal(
      updated,
      saved?.built_by === "session-start",
      `updated by SessionStart, or PreCompact's current: ${saved?.built_by}\n${e.debugLogTail()}`,
    );
  });
});
