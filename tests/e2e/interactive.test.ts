// Scenarios 3 (/clear) and 7 (latency) in interactive mode, through tmux: `/clear` starts a new
// session that does not resume the compacted work, and Claude Code's own hook timings are
// collected with a trivial Node hook registered beside ours for every event. Skipped, saying so,
// where tmux cannot run. Every file's `after` regenerates tests/e2e/results/latency.md when
// REHYDRATE_E2E_LATENCY=1.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  E2e,
  isOurCommand,
  isTurnRequest,
  type LoggedRequest,
  nonce,
  requestText,
  ROOT,
  tmuxAvailable,
} from "./harness.ts";
import { latencyTable, pooledDurations, writeLatencyReport } from "./latency.ts";

const TMUX = tmuxAvailable();
const PROJECT = "02-projects/01-website-redesign";

describe("interactive mode under the real Claude Code client (tmux)", {
  skip: TMUX ? false : "tmux is not installed: /clear and the Stop latency need interactive mode",
}, () => {
  let e: E2e;
  let ws: string;
  let cleared: LoggedRequest[] = [];
  const marker = `after-clear-${nonce()}`;

  function transcriptText(): string {
    const dir = join(e.home, ".claude", "projects", ws.replace(/[^a-zA-Z0-9]/g, "-"));
    if (!existsSync(dir)) return "";
    return readdirSync(dir).filter((n) => n.endsWith(".jsonl")).map((n) => readFileSync(join(dir, n), "utf8")).join(
      "\n",
    );
  }
  const rows = (needle: string) => transcriptText().split(needle).length - 1;
  const debugLog = () => existsSync(join(e.state, "debug.log")) ? readFileSync(join(e.state, "debug.log"), "utf8") : "";

  before(async () => {
    e = await E2e.start("interactive");
    ws = e.workspace(join(ROOT, "examples", "workspace"), { nodeHooks: true });
    const p = (rel: string) => JSON.stringify(join(ws, PROJECT, rel));
    await e.tmuxStart(ws);
    const work = `Server-render the pricing table [${nonce()}] <mock>[{"tool":"Read","input":{"file_path":${
      p("01-planning/resume-context.md")
    }}},{"tool":"Read","input":{"file_path":${p("01-planning/04-steps.md")}}},{"text":"It is task 6."}]</mock>`;
    e.tmuxType(work);
    await e.waitFor(() => rows(`"subtype":"stop_hook_summary"`) >= 1, "the first turn's Stop hooks");
    e.tmuxType("/compact");
    await e.waitFor(
      () => debugLog().includes("delivered by session-start") && rows(`"hookName":"SessionStart:compact"`) >= 1,
      "the compaction",
    );
    e.tmuxType("/clear");
    await e.waitFor(() => rows(`"hookName":"SessionStart:clear"`) >= 1, "SessionStart(clear)");
    const before = e.requests().length;
    // /clear redraws the screen and keys typed meanwhile are lost: type until the text shows.
    await e.tmuxSettle("a settled screen after /clear");
    await e.tmuxTypeSeen(`What next? ${marker} <mock>[{"text":"Let's see."}]</mock>`, marker);
    await e.waitFor(() => rows(`"subtype":"stop_hook_summary"`) >= 2, "the turn after /clear");
    cleared = e.requests().slice(before).filter(isTurnRequest);
    e.tmuxType("/exit");
    await new Promise((r) => setTimeout(r, 1500));
  });

  after(() => {
    e?.tmuxStop();
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("/clear does not resume: the next request has no compaction context and Stop does not block", () => {
    assert.equal(
      cleared.length,
      1,
      e.explain(`one request after /clear (no Stop block), got ${cleared.length}`, cleared.at(-1) ?? null, "Stop hook"),
    );
    const text = requestText(cleared[0]);
    assert.ok(text.includes(marker), e.explain("the prompt typed after /clear", cleared[0], null));
    assert.ok(!text.includes(`mode="compact"`), e.explain("no compact nexus-context", cleared[0], "nexus-context"));
    assert.ok(!text.includes("MOCK SUMMARY MARKER"), e.explain("no compaction summary", cleared[0], "continued"));
    assert.ok(
      text.includes(`<nexus-context version="v4" mode="startup"`),
      e.explain("the startup context instead", cleared[0], "nexus-context"),
    );
  });

  test("Claude Code records our hooks' durations beside the trivial Node hook's", () => {
    const mine = e.hookDurations();
    const ours = mine.filter((r) => isOurCommand(r.command));
    const node = mine.filter((r) => r.command.startsWith("node -e"));
    for (const hook of ["SessionStart:startup", "SessionStart:compact", "SessionStart:clear", "Stop"]) {
      assert.ok(ours.some((r) => r.hook === hook), `no duration for our ${hook}: ${JSON.stringify(mine)}`);
      assert.ok(node.some((r) => r.hook === hook), `no duration for the Node ${hook}: ${JSON.stringify(mine)}`);
    }
    console.log(`hook durations so far (Claude Code's own measure):\n${latencyTable([...pooledDurations(), ...mine])}`);
  });
});
