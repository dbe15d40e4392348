// The payload-quality bench's pure parts (bench/_payload_quality_rules.ts, bench/_py_text.ts,
// bench/_html_unescape.ts): reading a payload, which rows are typed, and the "new" and "wrong"
// rules, on tiny hand-made cases. The replay itself spawns the binary and lives in the bench.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  appendedRows,
  correctionsOf,
  firstBoundary,
  firstPrompt,
  isTestCommand,
  isUntypedRequest,
  newItems,
  parsePayload,
  parseTranscript,
  planTitle,
  scoreSession,
  significantWords,
  summaryOf,
  type TranscriptRow,
  trimOutputStages,
  typedText,
  userMessages,
  wrongClass,
  wrongItems,
} from "../../../bench/_payload_quality_rules.ts";
import { cpLength, cpSlice, normText, pyFixed, pyStrip, wordRuns } from "../../../bench/_py_text.ts";
import { htmlUnescape } from "../../../bench/_html_unescape.ts";

/** A transcript from row objects, one JSON line each. */
function transcript(...rows: unknown[]): TranscriptRow[] {
  return parseTranscript(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}

function user(content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "user", message: { role: "user", content }, ...extra };
}

function bash(command: string): Record<string, unknown> {
  return { type: "assistant", message: { content: [{ type: "tool_use", name: "Bash", input: { command } }] } };
}

const BOUNDARY = { type: "system", subtype: "compact_boundary" };

describe("Python text semantics", () => {
  test("normText() lowers, joins whitespace runs (Python's, with U+001C and U+0085) and strips", () => {
    assert.equal(normText("  Run\tthe\x1c TESTS\x85\n"), "run the tests");
    assert.equal(normText("\ufeffa"), "\ufeffa");
  });

  test("pyStrip() keeps U+FEFF, which String.trim would take", () => {
    assert.equal(pyStrip("\ufeff x \u3000"), "\ufeff x");
  });

  test("wordRuns() is Python's Unicode \\w: letters and digits of any script, not combining marks", () => {
    assert.deepEqual(wordRuns("café_2 e\u0301t ٣ a-b"), ["café_2", "e", "t", "٣", "a", "b"]);
  });

  test("cpLength() and cpSlice() count code points, as len() and slices do", () => {
    assert.equal(cpLength("a😀b"), 3);
    assert.equal(cpSlice("😀😀😀", 2), "😀😀");
    assert.equal(cpSlice("abc", 5), "abc");
  });

  test("pyFixed() rounds exact ties to even and everything else to nearest", () => {
    assert.equal(pyFixed(1 / 8), "0.12");
    assert.equal(pyFixed(3 / 8), "0.38");
    assert.equal(pyFixed(2.755), "2.75");
    assert.equal(pyFixed(84 / 404), "0.21");
  });

  test("htmlUnescape() reads the XML entities, numeric references and legacy names in one pass", () => {
    assert.equal(htmlUnescape("a &lt; b &amp;&amp; c &gt; &quot;d&quot; &apos;e&apos;"), `a < b && c > "d" 'e'`);
    assert.equal(htmlUnescape("&amp;lt;"), "&lt;");
    assert.equal(htmlUnescape("&#x41;&#66;&#x80;&#0;&#xD800;&#1;"), "AB€\ufffd\ufffd");
    assert.equal(htmlUnescape("?a=1&para=2&amp"), "?a=1¶=2&");
    assert.equal(htmlUnescape("&apos &unknown; & x"), "&apos &unknown; & x");
  });
});

describe("payload parsing", () => {
  const ctx = [
    '<session-context source="rehydrate">',
    '<tasks open="1" completed="1">',
    '<task id="1" status="in_progress"><subject>Fix &lt;Foo&gt; parsing</subject></task>',
    '<task id="2" status="completed"><subject>Write tests</subject></task>',
    "</tasks>",
    '<user-requests><request latest="true">make it &amp; ship</request><request>first ask</request></user-requests>',
    '<edited-files total="1"><file path="src/a&amp;b.ts"/></edited-files>',
    '<working-set><file path="src/c.ts" reasons="read"/><file path="README.md"/></working-set>',
    '<plan-file path="plan.md"/><state-line/><plan-file path="other.md"/>',
    "</session-context>",
  ].join("\n");

  test("parsePayload() reads tasks by status, requests with the latest, paths and other elements", () => {
    assert.deepEqual(parsePayload(ctx), {
      open: ["Fix <Foo> parsing"],
      done: ["Write tests"],
      req: ["make it & ship", "first ask"],
      latest: "make it & ship",
      edited: ["src/a&b.ts"],
      ws: ["src/c.ts", "README.md"],
      other: 2,
    });
  });

  test("parsePayload() reads no task from a task element without an id", () => {
    const it = parsePayload('<tasks><task status="pending"><subject>x</subject></task></tasks>');
    assert.deepEqual([it.open, it.done, it.other], [[], [], 0]);
  });

  test("parsePayload() of an empty payload has no items", () => {
    assert.deepEqual(parsePayload(""), { open: [], done: [], req: [], latest: null, edited: [], ws: [], other: 0 });
  });
});

describe("typed text", () => {
  test("typedText() keeps a plain prompt, stripped, from a string or from text blocks", () => {
    assert.equal(typedText(user("  fix the bug \n")), "fix the bug");
    assert.equal(
      typedText(user([{ type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }])),
      "a\nb",
    );
  });

  test("typedText() drops meta rows, summaries, sidechains and tool results", () => {
    assert.equal(typedText(user("x", { isMeta: true })), null);
    assert.equal(typedText(user("x", { isCompactSummary: true })), null);
    assert.equal(typedText(user("x", { isSidechain: true })), null);
    assert.equal(typedText(user([{ type: "tool_result", content: "ok" }, { type: "text", text: "x" }])), null);
  });

  test("typedText() reads Python truthiness: an empty list flag is false, a non-empty string true", () => {
    assert.equal(typedText(user("x", { isMeta: [] })), "x");
    assert.equal(typedText(user("x", { isMeta: "no" })), null);
  });

  test("typedText() drops client wrappers, interruptions and caveats, and strips a system instruction", () => {
    assert.equal(typedText(user("<local-command-stdout>done</local-command-stdout>")), null);
    assert.equal(typedText(user("  <system-reminder>x</system-reminder>")), null);
    assert.equal(typedText(user("<bash-input>ls</bash-input>")), null);
    assert.equal(typedText(user("[Request interrupted by user]")), null);
    assert.equal(typedText(user("Caveat: the messages below")), null);
    assert.equal(typedText(user("<system_instruction>be terse</system_instruction> go on")), "go on");
    assert.equal(typedText(user("<system_instruction>only this</system_instruction>")), null);
  });

  test("typedText() turns a slash command into /name args and keeps custom commands (custom-slash)", () => {
    assert.equal(
      typedText(user(
        "<command-message>review</command-message><command-name>/review</command-name>" +
          "<command-args> 12 </command-args>",
      )),
      "/review 12",
    );
    assert.equal(
      typedText(user("<command-name>workflows:plan</command-name><command-args>add a flag</command-args>")),
      "/workflows:plan add a flag",
    );
    assert.equal(typedText(user("<command-name>/init</command-name><command-args></command-args>")), "/init");
  });

  test("typedText() drops settings commands and /compact, but not a longer name that starts like one", () => {
    for (
      const name of ["/model", "/clear", "/config", "/context", "/cost", "/login", "/status", "/resume", "/effort"]
    ) {
      assert.equal(typedText(user(`<command-name>${name}</command-name><command-args>x</command-args>`)), null, name);
    }
    assert.equal(typedText(user("<command-name>/compact</command-name>")), null);
    assert.equal(typedText(user("<command-name>/compact-notes</command-name>")), null);
    assert.equal(typedText(user("<command-name>/model-x</command-name>")), null);
    assert.equal(typedText(user("<command-name>/models</command-name>")), "/models");
  });

  test("typedText() keeps queued messages, but not JSON, empty ones or task notifications", () => {
    const queued = (content: unknown, operation = "enqueue") => ({ type: "queue-operation", operation, content });
    assert.equal(typedText(queued("also update the docs")), "also update the docs");
    assert.equal(typedText(queued(' {"a":1}')), null);
    assert.equal(typedText(queued("  ")), null);
    assert.equal(typedText(queued("x <task-notification>done</task-notification>")), null);
    assert.equal(typedText(queued("also update the docs", "dequeue")), null);
  });

  test("typedText() keeps agent notifications and blocked prompts unless machine-queue and hook-block say not", () => {
    const agent = {
      type: "queue-operation",
      operation: "enqueue",
      content: "\n<agent-notification>\n<agent-id>a1</agent-id>",
    };
    const blocked = user("Operation stopped by hook: Another session is active");
    assert.notEqual(typedText(agent), null);
    assert.notEqual(typedText(blocked), null);
    assert.equal(typedText(agent, { machineQueue: true }), null);
    assert.equal(typedText(blocked, { hookBlock: true }), null);
    const unknownTag = { type: "queue-operation", operation: "enqueue", content: "<my-note> look at this" };
    assert.equal(typedText(unknownTag, { machineQueue: true }), "<my-note> look at this");
  });

  test("planTitle() is the plan's first heading, from planContent when there is one", () => {
    const text =
      "Implement the following plan:\n\n# Plan: Change ReadCommitted to Return CheckpointSummary\n\n## Summary";
    assert.equal(planTitle(text), "Plan: Change ReadCommitted to Return CheckpointSummary");
    assert.equal(planTitle(text, "intro\n## From the content ##\n# later"), "From the content");
    assert.equal(planTitle("Implement the following plan:\n\nJust do it.\n"), "Just do it.");
    assert.equal(planTitle("Please implement the following plan:"), null);
  });

  test("userMessages() marks a plan approval only under plan-approval", () => {
    const rows = transcript(user("first"), user("Implement the following plan:\n\n# Plan: X\n"));
    assert.deepEqual(userMessages(rows).map((m) => m.planTitle), [undefined, undefined]);
    assert.deepEqual(userMessages(rows, { planApproval: true }).map((m) => m.planTitle), [undefined, "Plan: X"]);
  });
});

describe("wrong items", () => {
  const items = (ctx: string) => parsePayload(ctx);

  test("wrongItems() finds nothing in a clean payload", () => {
    const ctx = '<task id="1" status="pending"><subject>a</subject></task>' +
      '<task id="2" status="completed"><subject>b</subject></task>' +
      '<request latest="true">Fix it now</request><request>add a test</request>' +
      '<working-set><file path="src/a.ts"/><file path="lib/a.ts"/><file path="src/a.ts"/></working-set>';
    assert.deepEqual(wrongItems(items(ctx), "fix it"), []);
  });

  test("wrongItems() counts a task list with nothing open once", () => {
    const ctx = '<task id="1" status="completed"><subject>a</subject></task>' +
      '<task id="2" status="deleted"><subject>b</subject></task>';
    assert.deepEqual(wrongItems(items(ctx), null), ["task list with nothing open"]);
  });

  test("wrongItems() counts a repeated request, compared in normal form", () => {
    const w = wrongItems(items("<request>Fix  the bug</request><request>fix the BUG\n</request>"), null);
    assert.deepEqual(w, ["repeated request"]);
  });

  test("wrongItems() counts requests the user did not type", () => {
    const ctx = "<request>Implement the following plan: # X</request>" +
      "<request>&lt;command-name&gt;/x&lt;/command-name&gt;</request><request> /model opus</request>" +
      "<request>/review 1</request>";
    assert.deepEqual(wrongItems(items(ctx), null).map(wrongClass), ["not typed", "not typed", "not typed"]);
  });

  test("isUntypedRequest() knows client tags and blocked prompts only under the corrections", () => {
    const c = correctionsOf(["machine-queue", "hook-block"]);
    assert.equal(isUntypedRequest("<agent-notification>x"), false);
    assert.equal(isUntypedRequest("<agent-notification>x", c), true);
    assert.equal(isUntypedRequest("Operation stopped by hook: y"), false);
    assert.equal(isUntypedRequest("Operation stopped by hook: y", c), true);
  });

  test("wrongItems() counts a path listed twice when one is a path-boundary suffix of the other", () => {
    const ctx = '<edited-files><file path="/repo/src/a.ts"/></edited-files>' +
      '<working-set><file path="src/a.ts"/><file path="xsrc/a.ts"/></working-set>';
    assert.deepEqual(wrongItems(items(ctx), null), ["listed twice: src/a.ts"]);
  });

  test("wrongItems() counts paths that are no file: a .git folder, a URL, a diff header", () => {
    const ctx = '<working-set><file path="repo/.git"/><file path="https://x.dev/a"/><file path="b/src/a.ts"/>' +
      '<file path="src/a.ts"/></working-set>';
    assert.deepEqual(wrongItems(items(ctx), null).map(wrongClass), [
      "no file",
      "no file",
      "diff header",
      "listed twice",
    ]);
  });

  test("wrongItems() counts a latest request that is not the newest typed message", () => {
    const ctx = '<request latest="true">an older ask</request>';
    assert.deepEqual(wrongItems(items(ctx), "the newest ask"), ["latest is not the newest typed or queued message"]);
    assert.deepEqual(wrongItems(items(ctx), null), []);
    assert.deepEqual(
      wrongItems(items('<request latest="true">&gt; The Newest   ask, quoted</request>'), "the newest ask"),
      [],
    );
  });
});

describe("new items", () => {
  test("newItems() counts a request whose first 120 normalised characters the summary lacks", () => {
    const long = "x".repeat(130);
    const it = parsePayload(
      `<request>Fix the   Parser</request><request>${long}</request><request>add a flag</request>`,
    );
    assert.deepEqual(newItems(it, `We will fix the parser. ${"X".repeat(120)}`), { items: 3, new: 1 });
  });

  test("newItems() counts an open task whose words the summary mostly lacks, but not a done one", () => {
    const it = parsePayload(
      '<task id="1" status="pending"><subject>Update retry logic in client</subject></task>' +
        '<task id="2" status="in_progress"><subject>Rewrite the config loader entirely</subject></task>' +
        '<task id="3" status="completed"><subject>Never counted</subject></task>',
    );
    // "update", "retry", "logic", "client": 3 of 4 in the summary (75 %); "rewrite", "config", "loader",
    // "entirely": 1 of 4.
    assert.deepEqual(newItems(it, "The client retry logic is half done; the config is fine."), { items: 2, new: 1 });
  });

  test("newItems() counts a path whose basename the summary lacks, and every other element", () => {
    const it = parsePayload('<working-set><file path="/r/src/a.ts"/><file path="/r/b.ts"/></working-set><plan-file/>');
    assert.deepEqual(newItems(it, "Edited a.ts"), { items: 3, new: 2 });
  });

  test("significantWords() keeps words of four characters or more that are not stop words", () => {
    assert.deepEqual(significantWords("Make sure that this works with the ÉTÉ build"), [
      "make",
      "sure",
      "works",
      "build",
    ]);
  });
});

describe("the replay's cut and the session score", () => {
  test("parseTranscript() reads CRLF and CR line ends and drops lines that are not JSON", () => {
    const rows = parseTranscript('{"a":1}\r\nnot json\r{"b":2}\n\n{"c":3}');
    assert.deepEqual(rows.map((r) => r.line), ['{"a":1}\n', '{"b":2}\n', '{"c":3}']);
  });

  test("firstBoundary(), summaryOf(), appendedRows() and firstPrompt() read the rows around the cut", () => {
    const rows = transcript(
      user("before"),
      BOUNDARY,
      user("This session is being continued. Summary: the parser.", { isCompactSummary: true }),
      user("<local-command-stdout>Compacted</local-command-stdout>"),
      user("now add a flag"),
    );
    const cut = firstBoundary(rows);
    assert.equal(cut, 1);
    assert.equal(summaryOf(rows, 1), "This session is being continued. Summary: the parser.");
    assert.deepEqual(appendedRows(rows, 1).map((r) => r.row), [rows[2].row]);
    // The first main-chain user row is the command echo, which is not typed: no prompt.
    assert.equal(firstPrompt(rows, 1), null);
    assert.equal(firstPrompt(transcript(BOUNDARY, user("go on")), 0), "go on");
    assert.equal(firstBoundary(transcript(user("x"))), null);
  });

  const session = transcript(
    user("run the tests please"),
    bash("go test ./... 2>&1 | tail -20"),
    {
      type: "assistant",
      message: { content: [{ type: "tool_use", name: "Write", input: { file_path: "/r/docs/PLAN.md" } }] },
    },
    user("Implement the following plan:\n\n# Plan: Speed up the parser\n"),
    BOUNDARY,
    user("Summary: we sped up things.", { isCompactSummary: true }),
    bash("go test ./... 2>&1 | tail -50"),
    bash("go test ./... 2>&1 | tail -20"),
  );
  const ctx = '<request latest="true">Implement the following plan: # Plan: Speed up the parser</request>' +
    "<note>ran `go test ./... 2>&amp;1 | tail -50` last</note>";

  test("scoreSession() scores the shared needs: the re-run command, the plan file, the newest message", () => {
    const s = scoreSession({ rows: session, cut: 4, ctx, summary: summaryOf(session, 4) });
    assert.deepEqual(s.detail, ["test-cmd no", "plan no", "newest-msg yes"]);
    assert.deepEqual([s.needs, s.have, s.alone], [3, 1, 0]);
    assert.deepEqual(s.wrong, ["not typed: Implement the following plan: # Plan: Speed up the"]);
    assert.equal(s.chars, cpLength(ctx));
    assert.deepEqual([s.items, s.new], [2, 2]);
  });

  test("scoreSession() meets the test command under cmd-pipes and keys the plan approval by its title", () => {
    const corrected = scoreSession(
      { rows: session, cut: 4, ctx, summary: summaryOf(session, 4) },
      correctionsOf(["cmd-pipes", "plan-approval"]),
    );
    assert.deepEqual(corrected.detail, ["test-cmd yes", "plan no", "newest-msg yes"]);
    assert.equal(corrected.keys[2], "plan: speed up the parser");
    // The plan approval is not typed: the latest request is checked against "run the tests please".
    assert.deepEqual(corrected.wrong.map(wrongClass), [
      "not typed",
      "latest is not the newest typed or queued message",
    ]);
  });

  test("trimOutputStages() takes off final tail, head and grep stages, then 2>&1", () => {
    assert.equal(trimOutputStages("go test ./... 2>&1 | grep -v ok | tail -20"), "go test ./...");
    assert.equal(trimOutputStages("npm test 2>&1"), "npm test");
    assert.equal(trimOutputStages("make | tee log.txt"), "make | tee log.txt");
    assert.equal(trimOutputStages("cat x | grep test | sort"), "cat x | grep test | sort");
  });

  test("isTestCommand() matches whole words only, with Python's Unicode word boundaries", () => {
    assert.equal(isTestCommand("mise run lint"), true);
    assert.equal(isTestCommand("bun test tests/unit"), true);
    assert.equal(isTestCommand("cat testdata/x"), false);
    assert.equal(isTestCommand("étest"), false);
    assert.equal(isTestCommand("git commit -m 'make-up'"), true);
  });
});
