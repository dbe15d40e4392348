// Scenario 2: auto-compaction under the real Claude Code client, both ways it happens in 2.1.197:
// the API answers "prompt is too long" (reactive compaction, then a retry), or the reported usage
// crosses the auto-compact threshold (CLAUDE_CODE_AUTO_COMPACT_WINDOW). Either way the request
// that follows the compaction must carry our <nexus-context mode="compact"> for the project, within
// 10,000 characters of hook text, and the compaction request PreCompact's instructions.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { E2e, firstAfterCompaction, type LoggedRequest, ourElements, requestText, ROOT, scripted } from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

const PROJECT = "02-projects/01-website-redesign";

/** Two finished turns on the website redesign (auto-compaction needs at least two). */
async function workOnProject(e: E2e, ws: string, env: Record<string, string> = {}): Promise<string> {
  const p = (rel: string) => join(ws, PROJECT, rel);
  const first = await e.claude(
    ws,
    scripted("Server-render the pricing table.", [
      { tool: "Read", input: { file_path: p("01-planning/resume-context.md") } },
      { tool: "Read", input: { file_path: p("01-planning/04-steps.md") } },
      { text: "The pricing table is task 6." },
    ]),
    { env },
  );
  await e.claude(
    ws,
    scripted("Look at the component.", [
      { tool: "Read", input: { file_path: p("03-working/pricing-table.tsx") } },
      { text: "It renders a plain table." },
    ]),
    { resume: first.sessionId, env },
  );
  return first.sessionId;
}

function checkCompactContext(
  e: E2e,
  compaction: LoggedRequest | undefined,
  next: LoggedRequest | null,
  trigger: string,
): void {
  assert.ok(compaction, e.explain(`the ${trigger} compaction request`, null));
  assert.ok(
    requestText(compaction).includes("When summarizing, preserve exactly"),
    e.explain("PreCompact's instructions", compaction, "detailed summary"),
  );
  assert.ok(next, e.explain(`a request after the ${trigger} compaction`, null));
  const elements = ourElements(next).filter((x) => x.includes(`mode="compact"`));
  assert.equal(elements.length, 1, e.explain("one compact nexus-context", next, "nexus-context"));
  assert.match(
    elements[0],
    /^<nexus-context version="v4" mode="compact" project="01-website-redesign" phase="execution"/,
    e.explain("project and phase", next, "nexus-context"),
  );
  assert.match(
    elements[0],
    /Server-render the pricing table from pricing\.json/,
    e.explain("the current task", next, "nexus-context"),
  );
  assert.ok(
    elements[0].includes(`${PROJECT}/01-planning/04-steps.md`),
    e.explain("the steps file", next, "nexus-context"),
  );
  const chars = ourElements(next).reduce((n, x) => n + x.length, 0);
  assert.ok(chars <= 10_000, e.explain(`${chars} characters of our elements`, next, "nexus-context"));
}

describe("auto-compaction under the real Claude Code client", () => {
  let e: E2e;

  before(async () => {
    e = await E2e.start("autocompact");
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test('after "prompt is too long" Claude Code compacts, and the retry carries our compact context', async () => {
    const ws = e.workspace(join(ROOT, "examples", "workspace"), { name: "too-long" });
    const sessionId = await workOnProject(e, ws);
    const run = await e.claude(
      ws,
      scripted("Now wire in pricing.json.", [
        { error: "too_long" },
        { text: "Wiring pricing.json in." },
      ]),
      { resume: sessionId },
    );
    const errors = run.requests.filter((r) => r.kind === "error");
    assert.equal(errors.length, 1, e.explain("one 400 prompt-too-long answer", run.requests[0] ?? null));
    const compaction = run.requests.find((r) => r.kind === "compact-summary");
    checkCompactContext(e, compaction, firstAfterCompaction(run.requests), "reactive");
    assert.match(
      readFileSync(e.transcriptPath(ws, sessionId), "utf8"),
      /"compact_boundary"[^\n]*"trigger":"auto"/,
      "an auto compaction",
    );
    assert.equal(run.result.is_error, false, JSON.stringify(run.result));
  });

  test("past the usage threshold the next turn auto-compacts and carries our compact context", async () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200000" };
    const ws = e.workspace(join(ROOT, "examples", "workspace"), { name: "threshold" });
    const sessionId = await workOnProject(e, ws, env);
    await e.claude(
      ws,
      scripted("Check the plan.", [
        { tool: "Read", input: { file_path: join(ws, PROJECT, "01-planning/03-plan.md") } },
        { text: "The plan says: server-render from pricing.json.", usage: 172_000 },
      ]),
      { resume: sessionId, env },
    );
    const run = await e.claude(ws, scripted("Now wire in pricing.json.", [{ text: "Wiring pricing.json in." }]), {
      resume: sessionId,
      env,
    });
    const compaction = run.requests.find((r) => r.kind === "compact-summary");
    checkCompactContext(e, compaction, firstAfterCompaction(run.requests), "threshold");
    assert.ok(!run.requests.some((r) => r.kind === "error"), "no error: the threshold, not the API, triggered it");
    assert.match(
      readFileSync(e.transcriptPath(ws, sessionId), "utf8"),
      /"compact_boundary"[^\n]*"trigger":"auto"/,
      "an auto compaction",
    );
  });
});
