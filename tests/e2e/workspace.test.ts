// Scenarios 1, 3 (resume), 6: a project workspace driven by the real Claude Code client. The
// agent reads and edits files of one project among several, `/compact` runs, and we check what
// reached the model: the compaction request carries PreCompact's instructions, the first request
// after it our <nexus-context mode="compact">, and a resume does not inject it a second time.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
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

const PROJECT = "02-projects/01-website-redesign";

describe("a project workspace under the real Claude Code client", () => {
  let e: E2e;
  let ws: string;
  let sessionId: string;
  let compactRequest: LoggedRequest | null = null;
  let afterCompact: LoggedRequest | null = null;
  let resumed: LoggedRequest | null = null;

  before(async () => {
    e = await E2e.start("workspace");
    ws = e.workspace(join(ROOT, "examples", "workspace"));
    const p = (rel: string) => join(ws, PROJECT, rel);
    // A glance at another project first, then the real work on the website redesign.
    const first = await e.claude(
      ws,
      scripted("What's the status of the API migration?", [
        { tool: "Read", input: { file_path: join(ws, "02-projects/02-api-migration/01-planning/04-steps.md") } },
        { text: "The API migration is still in planning." },
      ]),
    );
    sessionId = first.sessionId;
    await e.claude(
      ws,
      scripted("Back to the website redesign: server-render the pricing table.", [
        { tool: "Read", input: { file_path: p("01-planning/resume-context.md") } },
        { tool: "Read", input: { file_path: p("01-planning/04-steps.md") } },
        { tool: "Read", input: { file_path: p("03-working/pricing-table.tsx") } },
        {
          tool: "Edit",
          input: {
            file_path: p("03-working/pricing-table.tsx"),
            old_string: "<table>",
            new_string: `<table className="pricing">`,
          },
        },
        { text: "Next I'll load the prices from pricing.json." },
      ]),
      { resume: sessionId },
    );
    const compact = await e.claude(ws, "/compact", { resume: sessionId });
    compactRequest = compact.requests.find((r) => r.kind === "compact-summary") ?? null;
    const next = await e.claude(ws, scripted("Carry on.", [{ text: "Carrying on with the pricing table." }]), {
      resume: sessionId,
    });
    afterCompact = firstAfterCompaction([...compact.requests, ...next.requests]);
    const again = await e.claude(ws, scripted("And after a resume?", [{ text: "Still on it." }]), {
      resume: sessionId,
    });
    resumed = again.requests[0] ?? null;
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("the agent's Edit went through on the real file", () => {
    const text = readFileSync(join(ws, PROJECT, "03-working/pricing-table.tsx"), "utf8");
    assert.match(text, /<table className="pricing">/, e.debugLogTail());
  });

  test("PreCompact's plain-text instructions reach the compaction request Claude Code sends", () => {
    assert.ok(compactRequest, e.explain("the compaction request", null));
    const text = requestText(compactRequest);
    const needle = "When summarizing, preserve exactly";
    assert.ok(
      text.includes(needle),
      e.explain("PreCompact's instructions in the compaction request", compactRequest, "detailed summary"),
    );
    const at = text.indexOf(needle);
    const instructions = text.slice(at, at + 3000);
    assert.match(
      instructions,
      /01-website-redesign/,
      e.explain("the active project in the instructions", compactRequest, needle),
    );
    assert.match(
      instructions,
      /Server-render the pricing table/,
      e.explain("the current task in the instructions", compactRequest, needle),
    );
  });

  test('the first request after /compact carries <nexus-context mode="compact"> with the project, phase, task and files', () => {
    assert.ok(afterCompact, e.explain("a request after the compaction", null));
    const elements = ourElements(afterCompact).filter((x) => x.includes(`mode="compact"`));
    assert.equal(elements.length, 1, e.explain("one compact nexus-context", afterCompact, "nexus-context"));
    const ctx = elements[0];
    assert.match(
      ctx,
      /^<nexus-context version="v4" mode="compact"/,
      e.explain("version v4", afterCompact, "nexus-context"),
    );
    assert.match(ctx, /project="01-website-redesign"/, e.explain("the project", afterCompact, "nexus-context"));
    assert.match(ctx, /phase="execution"/, e.explain("the phase", afterCompact, "nexus-context"));
    assert.match(
      ctx,
      /Server-render the pricing table from pricing\.json/,
      e.explain("the current task", afterCompact, "nexus-context"),
    );
    for (const file of ["01-planning/04-steps.md", "01-planning/01-overview.md"]) {
      assert.ok(
        ctx.includes(`${PROJECT}/${file}`),
        e.explain(`the budgeted file ${file}`, afterCompact, "nexus-context"),
      );
    }
    assert.ok(requestText(afterCompact).includes("MOCK SUMMARY MARKER"), "the request carries the compaction summary");
  });

  test("the first request after /compact carries at most 10,000 characters of hook text from us", () => {
    assert.ok(afterCompact);
    const chars = ourElements(afterCompact).reduce((n, x) => n + x.length, 0);
    assert.ok(
      chars > 0 && chars <= 10_000,
      e.explain(`${chars} characters of our elements`, afterCompact, "nexus-context"),
    );
  });

  test("a --resume does not inject the compact context a second time", () => {
    assert.ok(resumed, e.explain("the request after the resume", null));
    const text = requestText(resumed);
    assert.equal(
      count(text, `<nexus-context version="v4" mode="compact"`),
      1,
      e.explain("exactly one compact nexus-context", resumed, "nexus-context"),
    );
    assert.equal(count(text, "<nexus-context"), 1, e.explain("no other nexus-context", resumed, "nexus-context"));
  });
});
