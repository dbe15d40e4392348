// Scenario 4: an orchestration run under the real Claude Code client. Reported usage past 80 % of
// the window gives a <context-monitor> CRITICAL in the next request; /compact leaves a checkpoint
// and the next prompt carries the <compaction-alert>; `rehydrate ack` stops the alert and its
// reminders.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type ClaudeRun, E2e, type LoggedRequest, requestText, ROOT, scripted, stringsOf } from "./harness.ts";
import { writeLatencyReport } from "./latency.ts";

/** The text this turn added: everything after the message holding the turn's prompt. */
function turnText(request: LoggedRequest, marker: string): string {
  const messages = (request.body as { messages?: unknown[] }).messages ?? [];
  let at = -1;
  messages.forEach((m, i) => {
    if (stringsOf(m).some((s) => s.includes(marker))) at = i;
  });
  return at < 0 ? "" : stringsOf(messages.slice(at)).join("\n");
}

describe("an orchestration run under the real Claude Code client", () => {
  let e: E2e;
  let ws: string;
  let monitorRun: ClaudeRun;
  let alertRun: ClaudeRun;
  let ackedRun: ClaudeRun;
  const prompts = {
    monitor: "Continue with QG-2 [monitor]",
    alert: "Go on [after-compaction]",
    acked: "Go on [after-ack]",
  };
  let ack = { status: null as number | null, stdout: "", stderr: "" };

  before(async () => {
    e = await E2e.start("orchestration");
    ws = e.workspace(join(ROOT, "tests", "fixtures", "orchestration", "workspace"));
    const orch = join(ws, "projects", "PROJ-001-oss-release", "ORCHESTRATION.yaml");
    // 830,000 of the default model's own 1,000,000-token window (Opus 5.5): 83 %, CRITICAL.
    const first = await e.claude(
      ws,
      scripted("Run quality gate QG-2 of the license migration.", [
        { tool: "Read", input: { file_path: orch } },
        { text: "QG-2 iteration 1 is under way.", usage: 830_000 },
      ]),
    );
    monitorRun = await e.claude(ws, scripted(prompts.monitor, [{ text: "Checkpointing." }]), {
      resume: first.sessionId,
    });
    await e.claude(ws, "/compact", { resume: first.sessionId });
    alertRun = await e.claude(ws, scripted(prompts.alert, [{ text: "Resuming QG-2." }]), { resume: first.sessionId });
    ack = e.rehydrate(["ack", "--project", ws], ws);
    ackedRun = await e.claude(ws, scripted(prompts.acked, [{ text: "Carrying on." }]), { resume: first.sessionId });
  });

  after(() => {
    e?.recordLatency();
    e?.close();
    writeLatencyReport();
  });

  test("usage past 80 % gives a <context-monitor> CRITICAL in the next request", () => {
    const request = monitorRun.requests[0] ?? null;
    assert.ok(request, e.explain("the request of the monitored turn", null));
    const text = turnText(request, prompts.monitor);
    const monitor = text.match(/<context-monitor\b[^>]*>[\s\S]*?<\/context-monitor>|<context-monitor\b[^>]*\/>/)?.[0];
    assert.ok(monitor, e.explain("a <context-monitor> for this prompt", request, "context-monitor"));
    assert.match(monitor, /CRITICAL/, e.explain("level CRITICAL", request, "context-monitor"));
    assert.match(
      monitor,
      /PROJ-001-oss-release\/ORCHESTRATION\.yaml/,
      e.explain("the run's file", request, "context-monitor"),
    );
  });

  test("after compaction a checkpoint exists and the next prompt carries the <compaction-alert>", () => {
    const dir = join(ws, ".jerry", "checkpoints");
    const checkpoints = existsSync(dir) ? readdirSync(dir).filter((n) => /^cx-\d{3}-checkpoint\.json$/.test(n)) : [];
    assert.equal(checkpoints.length, 1, `checkpoints: ${checkpoints.join(", ")}\n${e.debugLogTail()}`);
    const checkpoint = JSON.parse(readFileSync(join(dir, checkpoints[0]), "utf8"));
    assert.equal(checkpoint.acknowledged, true, "acknowledged by the ack below (it ran before this assertion)");
    const request = alertRun.requests[0] ?? null;
    assert.ok(request, e.explain("the request after the compaction", null));
    const text = requestText(request);
    assert.ok(text.includes("<compaction-alert>"), e.explain("the <compaction-alert>", request, "compaction"));
    assert.match(
      text,
      /<compaction-alert>[\s\S]*CONTEXT COMPACTION OCCURRED/,
      e.explain("Template 2", request, "compaction-alert"),
    );
    assert.ok(text.includes("MOCK SUMMARY MARKER"), "the request carries the summary");
  });

  test("rehydrate ack stops the alert: the next prompt gets neither the alert nor a reminder", () => {
    assert.equal(ack.status, 0, ack.stderr);
    assert.match(ack.stdout, /Acknowledged cx-001/);
    const request = ackedRun.requests[0] ?? null;
    assert.ok(request, e.explain("the request after ack", null));
    const text = turnText(request, prompts.acked);
    assert.ok(text.length > 0, e.explain("the acked prompt in the request", request, prompts.acked));
    assert.ok(
      !text.includes("<compaction-alert>") && !text.includes("<compaction-reminder"),
      e.explain("no alert for this prompt", request, prompts.acked),
    );
  });
});
