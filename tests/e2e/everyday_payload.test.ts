// What the model gets back after `/compact` in an ordinary repository, with the real Claude Code
// client in interactive mode (tmux) on its default model and without the task tools, as most
// sessions run today. The agent reads and edits src/format.js and runs the tests, which fail for
// real; while a slow command runs, the user queues a message; then `/compact` and a prompt. The
// first request after it must give the model what the summary does not: the queued message as the
// latest request, the failing test command word for word with its failure, no task list (there is
// none), and, from the first prompt, only what that compaction's summary leaves out.
// Skipped, saying so, where tmux cannot run.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  E2e,
  firstAfterCompaction,
  isTurnRequest,
  type LoggedRequest,
  nonce,
  ourElements,
  requestText,
  ROOT,
  stringsOf,
  tmuxAvailable,
} from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

const TMUX = tmuxAvailable();
const FIRST = "The totals are off by a cent sometimes. Find out why.";
const QUEUED = "please don't amend commits, and run the tests again after the fix";
/** Fails for real after the edit: formatTotal([1, 2]) gives "€300" where the test wants "€3". */
const TEST_COMMAND = "npm test";

/** A hook input as Claude Code sent it (the fields this file reads). */
interface HookInput {
  hook_event_name: string;
  source?: string;
}

describe("the payload after /compact, task-less, with a queued message (tmux)", {
  skip: TMUX ? false : "tmux is not installed: a queued message needs interactive mode",
}, () => {
  let e: E2e;
  let turns: LoggedRequest[] = [];
  let compactRequest: LoggedRequest | null = null;
  let afterCompact: LoggedRequest | null = null;
  let transcript = "";

  let inputs: () => HookInput[] = () => [];
  const stops = () => inputs().filter((i) => i.hook_event_name === "Stop").length;

  before(async () => {
    e = await E2e.start("everyday-payload");
    const repo = e.workspace(join(ROOT, "examples", "everyday"));
    // A capture hook beside ours (prints nothing): the events this scenario waits on.
    inputs = e.captureHookInputs<HookInput>(repo, ["SessionStart", "Stop"]);
    const p = (rel: string) => join(repo, rel);

    // The default model without the task tools: what most sessions run today.
    // Interactive 2.1.332 starts in auto mode, whose safety check asks a model the mock does not
    // play: the settings' allow rules decide instead, as in print mode.
    await e.tmuxStart(repo, { env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "0" }, args: ["--permission-mode", "default"] });
    const slow = `sleep 6 # ${nonce()}`;
    e.tmuxType(e.script(FIRST, [
      { tool: "Read", input: { file_path: p("src/format.js") } },
      {
        tool: "Edit",
        input: {
          file_path: p("src/format.js"),
          old_string: "total += price;",
          new_string: "total += Math.round(price * 100);",
        },
      },
      { tool: "Bash", input: { command: TEST_COMMAND, description: "Run the tests" } },
      { tool: "Bash", input: { command: slow, description: "Wait for the watcher" } },
      { text: "format.js sums integer cents now; the test still expects euros." },
    ]));
    // Typed while the slow command runs: the client queues it.
    await e.waitFor(
      () => e.requests().some((r) => JSON.stringify(r.reply ?? "").includes(slow)),
      "the slow command",
      60_000,
    );
    await new Promise((r) => setTimeout(r, 800));
    e.tmuxType(QUEUED);
    await e.waitFor(() => stops() >= 1, "the first turn", 90_000);
    // A queued message the client turns into a prompt of its own gets a turn of its own.
    await e.tmuxSettle("a settled screen after the turn");
    await new Promise((r) => setTimeout(r, 2000));
    const before = e.requests().length;
    e.tmuxType("/compact");
    await e.waitFor(
      () => inputs().some((i) => i.hook_event_name === "SessionStart" && i.source === "compact"),
      "SessionStart(compact)",
      60_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const carryOn = `Carry on. [${nonce()}]`;
    await e.tmuxSettle("a settled screen after /compact");
    const stopsBefore = stops();
    await e.tmuxTypeSeen(carryOn, carryOn);
    await e.waitFor(() => stops() > stopsBefore, "the turn after /compact", 60_000);
    const all = e.requests();
    turns = all.filter(isTurnRequest);
    const since = all.slice(before);
    compactRequest = since.find((r) => r.kind === "compact-summary") ?? null;
    afterCompact = firstAfterCompaction(since);
    const sessions = join(e.home, ".claude", "projects");
    transcript = existsSync(sessions) ? findTranscript(sessions) : "";
    e.tmuxType("/exit");
    await new Promise((r) => setTimeout(r, 1500));
  });

  after(() => {
    e?.tmuxStop();
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("the client offered no task tool: the session keeps no task list", () => {
    assert.ok(turns.length > 0, e.explain("a model request", null));
    const offered = turns.flatMap((r) => toolNames(r.body));
    assert.ok(offered.includes("Bash"), `the tools offered: ${offered.slice(0, 40).join(", ")}`);
    for (const name of ["TaskCreate", "TaskUpdate", "TodoWrite"]) {
      assert.ok(!offered.includes(name), `${name} offered: ${[...new Set(offered)].join(", ")}`);
    }
  });

  test("the message typed while the agent worked went through the client's queue", () => {
    assert.ok(transcript !== "", "the session's transcript");
    const rows = readFileSync(transcript, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
    assert.ok(
      rows.some((r) => r.type === "queue-operation" && r.operation === "enqueue" && String(r.content).includes(QUEUED)),
      "an enqueue row with the queued message",
    );
  });

  test("the first request after /compact gives the queued message as the latest request, and the failing test", () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const start = ourElements(afterCompact).filter((x) =>
      x.startsWith("<session-context") && !x.includes('part="after-summary"')
    );
    assert.equal(start.length, 1, e.explain("one session-context", afterCompact, "session-context"));
    const ctx = start[0];
    const latest = /<request latest="true"[^>]*>([^<]*)<\/request>/.exec(ctx);
    assert.ok(latest, e.explain("a latest request", afterCompact, ctx));
    assert.equal(unescape(latest[1]), QUEUED, e.explain("the queued message, as typed", afterCompact, ctx));
    assert.match(
      ctx,
      /<command exit="1" failure="[^"]*formatTotal adds the prices[^"]*">npm test<\/command>/,
      e.explain("the test command and its failure", afterCompact, ctx),
    );
    assert.ok(!ctx.includes("<tasks"), e.explain("no task list in a task-less session", afterCompact, ctx));
  });

  test("nothing the first prompt adds repeats what the compaction's summary says", () => {
    assert.ok(afterCompact && compactRequest, e.explain("the compaction and the request after it", null));
    const summary = stringsOf(compactRequest.reply).join("\n");
    assert.ok(summary.includes(FIRST), "the mock's summary quotes the user's messages");
    const gaps = ourElements(afterCompact).filter((x) => x.includes('part="after-summary"'));
    assert.ok(gaps.length <= 1, e.explain("the follow-up at most once", afterCompact, "after-summary"));
    for (const g of gaps) {
      for (const m of g.matchAll(/<request[^>]*>([^<]*)<\/request>/g)) {
        assert.ok(
          !summary.includes(unescape(m[1])),
          e.explain(`a request the summary quotes: ${m[1]}`, afterCompact, g),
        );
      }
      for (const m of g.matchAll(/<file path="([^"]*)"/g)) {
        const name = m[1].split("/").at(-1)!;
        assert.ok(!summary.includes(name), e.explain(`a file the summary names: ${m[1]}`, afterCompact, g));
      }
      assert.ok(!g.includes(FIRST), e.explain("not the first request, which the summary quotes", afterCompact, g));
    }
    assert.ok(requestText(afterCompact).includes("MOCK SUMMARY MARKER"), "the summary reached the model");
  });
});

/** The tool names a request offered the model. */
function toolNames(body: unknown): string[] {
  const tools = (body as { tools?: { name?: unknown }[] } | null)?.tools;
  return Array.isArray(tools) ? tools.map((t) => String(t?.name ?? "")) : [];
}

/** The newest `.jsonl` transcript under Claude Code's projects folder. */
function findTranscript(dir: string): string {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSyncSafe(d)) {
      const path = join(d, name);
      if (name.endsWith(".jsonl")) found.push(path);
      else if (!name.includes(".")) walk(path);
    }
  };
  walk(dir);
  return found.sort((a, b) => statMtime(b) - statMtime(a))[0] ?? "";
}

function readdirSyncSafe(d: string): string[] {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
}

function statMtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unescape(xml: string): string {
  return xml.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}
