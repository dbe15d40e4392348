import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../../../lib/transcript/count_tokens.ts";
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import { findOrchestrationLayout } from "../../../lib/orchestration/layout.ts";
import { orchestrationPreCompact } from "../../../lib/orchestration/checkpoint.ts";
import { orchestrationPostCompact } from "../../../lib/orchestration/post_compact.ts";
import { orchestrationPromptContext } from "../../../lib/orchestration/monitor.ts";
import { orchestrationSessionStart } from "../../../lib/orchestration/session_start.ts";
import { orchestrationPostToolUse } from "../../../lib/orchestration/staleness.ts";
import { cliAck } from "../../../lib/cli/ack.ts";
import { cliResumePrompt } from "../../../lib/cli/resume_prompt.ts";
import { updateSessionRecord } from "../../../lib/state/session_record.ts";
import { ajvFor, inHook, readJson, SCHEMAS, transcript, workspace } from "../_orchestration_env.ts";

const CKPT = ajvFor("checkpoint.v1.json");
const MONITOR = ajvFor("context_monitor_state.v1.json");
const CKPT_SCHEMA = JSON.parse(readFileSync(join(SCHEMAS, "checkpoint.v1.json"), "utf8"));
const RUN1 = "projects/PROJ-001-oss-release/ORCHESTRATION.yaml";

function assertCheckpointValid(path: string): Record<string, unknown> {
  const cp = readJson(path);
  assert.equal(CKPT(cp), true, JSON.stringify(CKPT.errors));
  assert.deepEqual(validateSchema(CKPT_SCHEMA, cp), []);
  return cp;
}

function checkpoints(ws: string): string[] {
  return readdirSync(join(ws, ".jerry", "checkpoints")).filter((n) => n.endsWith(".json")).sort();
}

const preCompact = (ws: string, input: Record<string, unknown> = {}, now?: Date) =>
  inHook(ws, "PreCompact", { trigger: "auto", custom_instructions: null, ...input }, orchestrationPreCompact, { now });
const prompt = (
  ws: string,
  input: Record<string, unknown> = {},
  options: { now?: Date; config?: Record<string, unknown> } = {},
) => inHook(ws, "UserPromptSubmit", { prompt: "go", ...input }, orchestrationPromptContext, options);

describe("the layout", () => {
  test("is absent without projects/*/ORCHESTRATION.yaml: every hook returns null and writes nothing", async () => {
    for (const name of ["missing", null] as const) {
      const ws = workspace(name);
      assert.equal(await preCompact(ws), null);
      assert.equal(await prompt(ws, { transcript_path: transcript(ws, 190000) }), null);
      assert.equal(
        await inHook(
          ws,
          "SessionStart",
          { source: "startup" },
          (ctx) => orchestrationSessionStart(ctx, { maxChars: 9500 }),
        ),
        null,
      );
      await inHook(ws, "PostCompact", { trigger: "auto", compact_summary: "s" }, orchestrationPostCompact);
      assert.equal(existsSync(join(ws, ".jerry")), false);
    }
  });

  test("is off when orchestration.enabled is false", async () => {
    const ws = workspace();
    const off = { orchestration: { enabled: false } };
    assert.equal(await inHook(ws, "PreCompact", { trigger: "auto" }, orchestrationPreCompact, { config: off }), null);
    assert.equal(existsSync(join(ws, ".jerry")), false);
  });

  test("picks the run the transcript shows recent work on, else the newest file", () => {
    const ws = workspace();
    utimesSync(join(ws, "projects/PROJ-002-docs-site/ORCHESTRATION.yaml"), new Date(2000, 1, 1), new Date(2000, 1, 1));
    assert.equal(findOrchestrationLayout(ws)?.active.id, "PROJ-001-oss-release");
    assert.equal(findOrchestrationLayout(ws)?.chosenBy, "mtime");
    const t = transcript(ws, 1000, {
      editPaths: [join(ws, "projects/PROJ-001-oss-release/NOTICE"), join(ws, "projects/PROJ-002-docs-site/sitemap.md")],
    });
    const layout = findOrchestrationLayout(ws, { transcriptPath: t });
    assert.equal(layout?.active.id, "PROJ-002-docs-site");
    assert.equal(layout?.chosenBy, "transcript");
    assert.equal(layout?.runs.length, 2);
  });
});

describe("orchestrationPreCompact()", () => {
  test("writes a schema-valid, redacted cx-001 from the resumption section with the fill before compaction", async () => {
    const ws = workspace();
    const yaml = join(ws, RUN1);
    writeFileSync(
      yaml,
      readFileSync(yaml, "utf8").replace(
        "current_phase_name: Core License Changes",
        "current_phase_name: Core License Changes\n  critical_context: 'rotated DB_PASSWORD=hunter2 after the audit'",
      ),
    );
    const r = await preCompact(ws, { transcript_path: transcript(ws, 177200) });
    assert.ok(r);
    assert.equal(r.checkpointPath, join(ws, ".jerry", "checkpoints", "cx-001-checkpoint.json"));
    const cp = assertCheckpointValid(r.checkpointPath);
    assert.equal(cp.checkpoint_id, "cx-001");
    assert.deepEqual(cp.trigger, { type: "auto", source: "PreCompact" });
    assert.deepEqual(cp.context_state, { fill_fraction: 0.886, tokens: 177200, window: 200000 });
    assert.deepEqual(cp.orchestration_state, {
      workflow_id: "feat015-licmig-20260217-001",
      workflow_status: "ACTIVE",
      phase_number: 2,
      phase_name: "Core License Changes",
      activity: "qg-2-iteration-1",
      gate: "qg-2",
      gate_iteration: 1,
      gate_score: 0.96,
    });
    assert.equal(
      (cp.recovery as { critical_context: string }).critical_context,
      "rotated DB_PASSWORD=[REDACTED:password] after the audit",
    );
    assert.match(
      (cp.recovery as { next_action: string }).next_action,
      /^Apply the revision for the QG-2 iteration 1 findings/,
    );
    assert.deepEqual(cp.pending_decisions, [{
      id: "RD-001",
      summary:
        "Align copyright holder to 'Adam Nowak' across NOTICE, header_template, and ORCHESTRATION_PLAN. NOTICE is authoritative.",
      affects: "phase-3 header_template",
    }]);
    assert.equal(cp.acknowledged, false);
    assert.deepEqual(cp.missing, []);
    assert.match(
      r.summaryInstructions,
      /Keep in the summary the current phase \(Phase 2: Core License Changes\), the activity \(qg-2-iteration-1\), the quality gate \(qg-2, iteration 1, last score 0\.960\)/,
    );
    assert.doesNotMatch(r.summaryInstructions, /^\s*\{/, "plain text, never JSON");
  });

  test("numbers checkpoints one after another and says the next action restarts a gate iteration caught mid-scoring", async () => {
    const ws = workspace();
    await preCompact(ws);
    const yaml = join(ws, RUN1);
    writeFileSync(
      yaml,
      readFileSync(yaml, "utf8").replace("current_activity: qg-2-iteration-1", "current_activity: qg-2-iteration-2")
        .replace("current_gate_iteration: 1", "current_gate_iteration: 2"),
    );
    const r = await preCompact(ws);
    const cp = assertCheckpointValid(r!.checkpointPath);
    assert.equal(cp.checkpoint_id, "cx-002");
    assert.match((cp.recovery as { next_action: string }).next_action, /^Restart QG-2 iteration 2 from the beginning/);
    assert.deepEqual(checkpoints(ws), ["cx-001-checkpoint.json", "cx-002-checkpoint.json"]);
  });

  test("still writes a checkpoint, with a missing field, when ORCHESTRATION.yaml is invalid or gone", async () => {
    const bad = workspace("invalid");
    const cp = assertCheckpointValid((await preCompact(bad))!.checkpointPath);
    assert.equal(cp.project, "PROJ-003-broken");
    assert.ok((cp.missing as string[]).includes("ORCHESTRATION.yaml"));
    assert.ok((cp.missing as string[]).includes("orchestration_state.phase_number"));
    assert.ok((cp.missing as string[]).includes("context-monitor-state.json"));

    const gone = workspace("missing");
    symlinkSync(join(gone, "nowhere.yaml"), join(gone, "projects", "PROJ-004-empty", "ORCHESTRATION.yaml"));
    const cp2 = assertCheckpointValid((await preCompact(gone))!.checkpointPath);
    assert.equal((cp2.orchestration_state as Record<string, unknown>).workflow_id, null);
    assert.ok((cp2.missing as string[]).includes("ORCHESTRATION.yaml"));
  });
});

describe("orchestrationPostCompact()", () => {
  test("adds the redacted, capped compact_summary to this compaction's checkpoint", async () => {
    const ws = workspace();
    const r = await preCompact(ws);
    const summary = "<summary>Phase 2, QG-2. key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n" +
      "detail ".repeat(3000) + "</summary>";
    await inHook(ws, "PostCompact", { trigger: "auto", compact_summary: summary }, orchestrationPostCompact);
    const cp = assertCheckpointValid(r!.checkpointPath);
    const kept = cp.compact_summary as string;
    assert.ok(kept.length <= 8000);
    assert.match(kept, /^<summary>Phase 2, QG-2\. key \[REDACTED:anthropic-key\]/);
    assert.match(kept, /\[… summary shortened by \d+ chars\]$/);
    assert.deepEqual(checkpoints(ws), ["cx-001-checkpoint.json"]);
  });

  test("writes its own checkpoint when PreCompact left none", async () => {
    const ws = workspace();
    await inHook(ws, "PostCompact", { trigger: "manual", compact_summary: "the summary" }, orchestrationPostCompact);
    const cp = assertCheckpointValid(join(ws, ".jerry", "checkpoints", "cx-001-checkpoint.json"));
    assert.deepEqual(cp.trigger, { type: "manual", source: "PostCompact" });
    assert.equal(cp.compact_summary, "the summary");
  });
});

describe("orchestrationPromptContext()", () => {
  test("injects nothing at nominal fill but always writes a schema-valid monitor state", async () => {
    const ws = workspace();
    assert.equal(await prompt(ws, { transcript_path: transcript(ws, 100000) }), null);
    const st = readJson(join(ws, ".jerry", "context-monitor-state.json"));
    assert.equal(MONITOR(st), true, JSON.stringify(MONITOR.errors));
    assert.equal(st.level, "NOMINAL");
    assert.equal(st.fill_fraction, 0.5);
    assert.equal(st.resumption_status, "FRESH");
  });

  test("injects a <context-monitor> of at most 200 tokens at each level from WARNING up", async () => {
    for (
      const [tokens, level, words] of [[120000, "WARNING", /at the next state transition/], [
        160000,
        "CRITICAL",
        /Checkpoint NOW/,
      ], [180000, "COMPACTION", /Compaction is imminent/]] as const
    ) {
      const ws = workspace();
      const text = await prompt(ws, { transcript_path: transcript(ws, tokens) });
      assert.ok(text);
      assert.match(
        text,
        new RegExp(
          `^<context-monitor level="${level}" fill="${
            tokens / 2000
          }\\.0%" tokens="${tokens}" window="200000" resumption="FRESH">`,
        ),
      );
      assert.match(text, words);
      assert.ok(countTokens(text) <= 200);
      const st = readJson(join(ws, ".jerry", "context-monitor-state.json"));
      assert.equal(MONITOR(st), true);
      assert.equal(st.level, level);
    }
  });

  test("uses the session's [1m] model and configured thresholds", async () => {
    const ws = workspace();
    const t = transcript(ws, 150000);
    const config = { orchestration: { thresholds: { warning: 0.1, critical: 0.5, compaction: 0.9 } } };
    assert.match(
      (await prompt(ws, { transcript_path: t }, { config }))!,
      /level="CRITICAL" fill="75\.0%" tokens="150000" window="200000"/,
    );
    await inHook(
      ws,
      "SessionStart",
      { source: "startup" },
      (ctx) => updateSessionRecord(ctx.stateDir(), "sess-1", { model: "claude-opus-4-6[1m]" }),
    );
    assert.match(
      (await prompt(ws, { transcript_path: t }, { config }))!,
      /level="WARNING" fill="15\.0%" tokens="150000" window="1000000"/,
    );
  });

  test("reports the resumption section STALE when a newer checkpoint has not been merged, within 200 tokens", async () => {
    const ws = workspace();
    await preCompact(ws);
    const text = await prompt(ws, { transcript_path: transcript(ws, 150000) });
    const monitor = text!.split("\n<compaction-alert>")[0];
    assert.match(monitor, /resumption="STALE"/);
    assert.match(monitor, /checkpoint cx-001 is newer than the resumption section/);
    assert.ok(countTokens(monitor) <= 200);
    assert.equal(readJson(join(ws, ".jerry", "context-monitor-state.json")).resumption_status, "STALE");
  });

  test("repeats the level's advice reminderMax times, then only reports the level", async () => {
    const ws = workspace();
    const t = transcript(ws, 130000);
    const config = { orchestration: { reminderMax: 2 } };
    const texts = [];
    for (let i = 0; i < 4; i++) texts.push(await prompt(ws, { transcript_path: t }, { config }));
    assert.match(texts[0]!, /Context is filling up/);
    assert.match(texts[1]!, /Context is filling up/);
    assert.equal(
      texts[2],
      '<context-monitor level="WARNING" fill="65.0%" tokens="130000" window="200000" resumption="FRESH"/>',
    );
    assert.equal(texts[3], texts[2]);
    assert.equal(readJson(join(ws, ".jerry", "context-monitor-state.json")).reminders_sent, 2);
  });

  test("delivers Template 2 once per checkpoint per session, then at most reminderMax one-line reminders", async () => {
    const ws = workspace();
    await preCompact(ws, { transcript_path: transcript(ws, 177200) });
    const t = transcript(ws, 40000);
    const config = { orchestration: { reminderMax: 2 } };
    const first = await prompt(ws, { transcript_path: t }, { config });
    assert.match(first!, /^<compaction-alert>\nCONTEXT COMPACTION OCCURRED/);
    assert.match(first!, /PRE-COMPACTION FILL: 88\.6%/);
    assert.ok(countTokens(first!) <= 500);
    const second = await prompt(ws, { transcript_path: t }, { config });
    assert.match(
      second!,
      /^<compaction-reminder checkpoint="\.jerry\/checkpoints\/cx-001-checkpoint\.json" unacknowledged="1">/,
    );
    assert.equal(second!.split("\n").length, 1);
    assert.match((await prompt(ws, { transcript_path: t }, { config }))!, /^<compaction-reminder/);
    assert.equal(await prompt(ws, { transcript_path: t }, { config }), null);
    // Another session gets no alert for a compaction it did not have (rule 4 of SECURITY.md); its
    // startup resumption prompt is what brings the run back.
    assert.equal(await prompt(ws, { transcript_path: t, session_id: "sess-2" }, { config }), null);
    // Acknowledged: nothing more.
    const io = { out: () => {}, err: () => {} };
    assert.equal(cliAck(["--project", ws], io), 0);
    assert.equal(await prompt(ws, { transcript_path: t, session_id: "sess-3" }), null);
  });

  test("shows the newest of several unacknowledged checkpoints as COMPACTION EVENT: N of M", async () => {
    const ws = workspace();
    await preCompact(ws);
    await preCompact(ws);
    const text = await prompt(ws, { transcript_path: transcript(ws, 30000) });
    assert.match(text!, /COMPACTION EVENT: 2 of 2 this session \(2 checkpoints unacknowledged/);
    assert.match(text!, /CHECKPOINT: \.jerry\/checkpoints\/cx-002-checkpoint\.json/);
  });

  test("gives no alert for a corrupt checkpoint (no longer what we wrote), and ack sets it aside", async () => {
    const ws = workspace();
    await preCompact(ws);
    writeFileSync(join(ws, ".jerry", "checkpoints", "cx-001-checkpoint.json"), '{"checkpoint_id": "cx-001", "acknowl');
    assert.equal(await prompt(ws, { transcript_path: transcript(ws, 30000) }), null);
    const start = await inHook(
      ws,
      "SessionStart",
      { source: "compact" },
      (ctx) => orchestrationSessionStart(ctx, { maxChars: 9500 }),
    );
    assert.match(
      start!,
      /^<checkpoints-elsewhere unacknowledged="1">This repository holds checkpoints written elsewhere/,
    );
    const out: string[] = [];
    assert.equal(cliAck(["--project", ws], { out: (s) => out.push(s), err: (s) => out.push(s) }), 0);
    assert.match(out.join(""), /Set aside corrupt cx-001/);
    assert.equal(await prompt(ws, { transcript_path: transcript(ws, 30000), session_id: "sess-9" }), null);
    const next = await preCompact(ws);
    assert.match(next!.checkpointPath, /cx-002-checkpoint\.json$/, "a set-aside number is never reused");
  });
});

describe("orchestrationSessionStart()", () => {
  test("injects Template 1 at startup when a checkpoint is unacknowledged, within budget, and counts it as delivered", async () => {
    const ws = workspace();
    await preCompact(ws, { transcript_path: transcript(ws, 177200) });
    const text = await inHook(
      ws,
      "SessionStart",
      { source: "startup", session_id: "new" },
      (ctx) => orchestrationSessionStart(ctx, { maxChars: 9500 }),
    );
    assert.match(text!, /^You are resuming a workflow that was interrupted/);
    assert.match(text!, /- Last checkpoint: cx-001 \(\.jerry\/checkpoints\/cx-001-checkpoint\.json\)/);
    assert.match(text!, /- Context fill at interruption: 88\.6%/);
    assert.ok(countTokens(text!) <= 1000);
    const next = await prompt(ws, { transcript_path: transcript(ws, 1000), session_id: "new" });
    assert.match(next!, /^<compaction-reminder /);
    const small = await inHook(
      ws,
      "SessionStart",
      { source: "startup", session_id: "other" },
      (ctx) => orchestrationSessionStart(ctx, { maxChars: 1200 }),
    );
    assert.ok(small!.length <= 1200);
  });

  test("injects Template 2 right after compaction, and nothing at startup once acknowledged", async () => {
    const ws = workspace();
    await preCompact(ws);
    const compact = await inHook(
      ws,
      "SessionStart",
      { source: "compact" },
      (ctx) => orchestrationSessionStart(ctx, { maxChars: 9500 }),
    );
    assert.match(compact!, /^<compaction-alert>/);
    assert.match((await prompt(ws, { transcript_path: transcript(ws, 1000) }))!, /^<compaction-reminder /);
    cliAck(["--project", ws], { out: () => {}, err: () => {} });
    assert.equal(
      await inHook(
        ws,
        "SessionStart",
        { source: "startup", session_id: "n" },
        (ctx) => orchestrationSessionStart(ctx, { maxChars: 9500 }),
      ),
      null,
    );
    assert.equal(
      await inHook(
        ws,
        "SessionStart",
        { source: "resume" },
        (ctx) => orchestrationSessionStart(ctx, { maxChars: 9500 }),
      ),
      null,
    );
  });
});

describe("orchestrationPostToolUse()", () => {
  const edit = (ws: string, input: Record<string, unknown>, response: Record<string, unknown> = {}) =>
    inHook(
      ws,
      "PostToolUse",
      { tool_name: "Edit", tool_input: input, tool_response: response, tool_use_id: "t" },
      orchestrationPostToolUse,
    );

  test("stays quiet when the resumption section is current or the file is not a run's", async () => {
    const ws = workspace();
    const path = join(ws, RUN1);
    assert.equal(await edit(ws, { file_path: path, old_string: "x", new_string: "updated_at" }), null);
    assert.equal(await edit(ws, { file_path: join(ws, "README.md"), old_string: "a", new_string: "b" }), null);
    assert.equal(
      await inHook(ws, "PostToolUse", {
        tool_name: "Read",
        tool_input: { file_path: path },
        tool_response: {},
        tool_use_id: "t",
      }, orchestrationPostToolUse),
      null,
    );
  });

  test("warns when a write changed the run but not resumption.updated_at, naming the fields", async () => {
    const ws = workspace();
    const path = join(ws, RUN1);
    const before = readFileSync(path, "utf8");
    writeFileSync(
      path,
      before.replace("    current_iteration: 1\n", "    current_iteration: 2\n").replace(
        "      - 0.960\n",
        "      - 0.960\n      - 0.940\n",
      ),
    );
    const text = await edit(ws, { file_path: path, old_string: "a", new_string: "b" }, { originalFile: before });
    assert.ok(text);
    assert.match(
      text,
      /^<resumption-stale file="projects\/PROJ-001-oss-release\/ORCHESTRATION\.yaml">The resumption section of .* is STALE: /,
    );
    assert.match(text, /qg-2 has 2 scores but the trajectory 1/);
    assert.match(text, /this write changed quality_gates but not resumption\.updated_at/);
    assert.match(text, /Update .*resumption\.quality_trajectory\.score_history.*resumption\.updated_at/);
    assert.ok(countTokens(text) <= 250);
  });

  test("warns when updated_at is older than the current phase's start, rebuilding the old text from the edit", async () => {
    const ws = workspace();
    const path = join(ws, RUN1);
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace('updated_at: "2026-02-19T14:05:31Z"', 'updated_at: "2026-02-17T10:00:00Z"'),
    );
    const text = await edit(ws, {
      file_path: "projects/PROJ-001-oss-release/ORCHESTRATION.yaml",
      old_string: "Release Verification",
      new_string: "Release Checks",
    });
    assert.match(text!, /updated_at is older than the start of phase 2/);
  });

  test("warns when the file no longer parses", async () => {
    const ws = workspace();
    const path = join(ws, RUN1);
    writeFileSync(path, "resumption:\n  next_step: [unclosed\n");
    assert.match(
      (await edit(ws, { file_path: path, old_string: "a", new_string: "b" }))!,
      /no longer parses as the hooks read it/,
    );
  });
});

/** Runs `fn` with the state directory the hook contexts of `ws` use (the CLI reads process.env). */
function withStateDir<T>(ws: string, fn: () => T): T {
  const before = process.env.REHYDRATE_STATE_DIR;
  process.env.REHYDRATE_STATE_DIR = join(ws, ".home", "state");
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.REHYDRATE_STATE_DIR;
    else process.env.REHYDRATE_STATE_DIR = before;
  }
}

describe("the CLI verbs", () => {
  const run = (fn: typeof cliAck, args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = fn(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
    return { code, out: out.join(""), err: err.join("") };
  };

  test("resume-prompt prints Template 1 for the workspace", async () => {
    const ws = workspace();
    await preCompact(ws);
    const r = withStateDir(ws, () => run(cliResumePrompt, ["--project", ws]));
    assert.equal(r.code, 0);
    assert.match(r.out, /^You are resuming a workflow that was interrupted\./);
    assert.match(r.out, /WORKFLOW: feat015-licmig-20260217-001/);
    assert.ok(countTokens(r.out) <= 1001);
  });

  test("ack acknowledges every unacknowledged checkpoint with a schema-valid atomic rewrite", async () => {
    const ws = workspace();
    await preCompact(ws);
    await preCompact(ws);
    const r = run(cliAck, [`--project=${ws}`]);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Acknowledged cx-001, cx-002 in \.jerry\/checkpoints\n$/);
    for (const name of checkpoints(ws)) {
      const cp = assertCheckpointValid(join(ws, ".jerry", "checkpoints", name));
      assert.equal(cp.acknowledged, true);
      assert.equal(typeof cp.acknowledged_at, "string");
    }
    assert.match(run(cliAck, ["--project", ws]).out, /^No unacknowledged checkpoints/);
  });

  test("both answer --help with examples, refuse bad usage with a line and a hint (exit 2) and a missing project with one line (exit 1)", () => {
    for (const fn of [cliAck, cliResumePrompt]) {
      const help = run(fn, ["--help"]);
      assert.equal(help.code, 0);
      assert.match(help.out, /Examples:\n {2}rehydrate /);
      const cases = [[["--bogus"], 2], [["--project"], 2], [["--project", "/definitely/not/here"], 1]] as const;
      for (const [args, code] of cases) {
        const r = run(fn, [...args]);
        assert.equal(r.code, code, args.join(" "));
        assert.equal(r.out, "");
        assert.equal(r.err.trimEnd().split("\n").length, code === 2 ? 2 : 1);
        assert.match(r.err, /^rehydrate (ack|resume-prompt): [a-z-]/);
      }
    }
    const empty = workspace(null);
    const r = run(cliResumePrompt, ["--project", empty]);
    assert.equal(r.code, 1);
    assert.match(r.err, /no projects\/\*\/ORCHESTRATION\.yaml/);
    rmSync(empty, { recursive: true });
  });
});
