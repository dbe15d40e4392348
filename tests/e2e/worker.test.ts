// Scenario 5: a worker session (REHYDRATE_DISPATCH_FILE names its dispatch file) under the real
// Claude Code client. After a compaction the first tool call is denied with the dispatch file
// named, the agent's Read of that file passes; after another compaction an answer that read
// nothing is stopped once by the Stop hook, and only once.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { type ClaudeRun, count, E2e, type LoggedRequest, ROOT, scripted, stringsOf } from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

/** The tool_result blocks of a request's last message, as text. */
function lastToolResults(request: LoggedRequest): { text: string; isError: boolean }[] {
  const messages = (request.body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i].content;
    if (messages[i].role !== "user" || !Array.isArray(content)) continue;
    const results = content.filter((b) => b && b.type === "tool_result");
    if (results.length > 0) {
      return results.map((b) => ({ text: stringsOf(b.content).join("\n"), isError: b.is_error === true }));
    }
  }
  return [];
}

describe("a worker session under the real Claude Code client", () => {
  let e: E2e;
  let ws: string;
  let dispatch: string;
  let afterFirst: ClaudeRun;
  let afterSecond: ClaudeRun;

  before(async () => {
    e = await E2e.start("worker");
    ws = e.workspace(join(ROOT, "tests", "fixtures", "dispatch", "project"));
    dispatch = join(ws, "docs", "handler-dispatches", "fix-login.md");
    const env = { REHYDRATE_DISPATCH_FILE: dispatch };
    const first = await e.claude(
      ws,
      scripted("Work on your dispatch.", [
        { tool: "Read", input: { file_path: dispatch } },
        { text: "Running the full suite next." },
      ]),
      { env },
    );
    const id = first.sessionId;
    await e.claude(ws, "/compact", { resume: id, env });
    afterFirst = await e.claude(
      ws,
      scripted("Continue.", [
        { tool: "Bash", input: { command: "ls", description: "List files" } },
        { tool: "Read", input: { file_path: dispatch } },
        { text: "Back on the login redirect." },
      ]),
      { resume: id, env },
    );
    await e.claude(ws, "/compact", { resume: id, env });
    afterSecond = await e.claude(ws, scripted("Status?", [{ text: "All done, I think." }]), { resume: id, env });
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("after compaction the first tool call is denied, naming the dispatch file", () => {
    const first = afterFirst.requests[0] ?? null;
    assert.ok(
      first &&
        stringsOf(first.body).some((s) => s.includes(`This is a worker session. Your dispatch file is ${dispatch}`)),
      e.explain("the dispatch pointer after compaction", first, "worker session"),
    );
    const request = afterFirst.requests[1] ?? null;
    assert.ok(request, e.explain("the request after the first tool call", null));
    const results = lastToolResults(request);
    assert.equal(results.length, 1, e.explain("one tool_result", request, "tool_result"));
    assert.ok(
      results[0].text.includes(dispatch),
      e.explain("the dispatch file in the deny reason", request, "tool_result"),
    );
    assert.equal(results[0].isError, true, e.explain("the Bash call refused", request, "tool_result"));
  });

  test("the agent's Read of the dispatch file passes", () => {
    const request = afterFirst.requests[2] ?? null;
    assert.ok(request, e.explain("the request after the Read", null));
    const results = lastToolResults(request);
    assert.equal(results.length, 1, e.explain("one tool_result", request, "tool_result"));
    assert.match(
      results[0].text,
      /Fix the login redirect[\s\S]*## Progress/,
      e.explain("the file's content", request, "Fix the login"),
    );
    assert.equal(results[0].isError, false);
    assert.equal(afterFirst.requests.length, 3, "no Stop block: the file was read");
  });

  test("after another compaction an answer that read nothing is blocked by Stop once", () => {
    assert.equal(
      afterSecond.requests.length,
      2,
      e.explain(
        `two requests (the answer, then after the block), got ${afterSecond.requests.length}`,
        afterSecond.requests.at(-1) ?? null,
        "Stop hook",
      ),
    );
    const [answer, continued] = afterSecond.requests;
    const feedback = stringsOf((continued.body as { messages: unknown[] }).messages.slice(-3)).join("\n");
    assert.ok(
      feedback.includes("Stop hook feedback") && feedback.includes(dispatch),
      e.explain("the Stop reason naming the dispatch file", continued, "Stop hook feedback"),
    );
    assert.equal(
      count(stringsOf(answer.body).join("\n"), "Stop hook feedback"),
      0,
      "the first request had no block yet",
    );
  });
});
