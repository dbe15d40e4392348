import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { parseYaml } from "../../../lib/yaml/parse_yaml.ts";
import { countTokens } from "../../../lib/transcript/count_tokens.ts";
import { readOrchestrationResumption } from "../../../lib/orchestration/resumption.ts";
import { renderResumePrompt } from "../../../lib/orchestration/resume_prompt.ts";
import { renderCompactionAlert } from "../../../lib/orchestration/alert.ts";
import type { Checkpoint } from "../../../lib/orchestration/checkpoints.ts";
import { nextActionFor } from "../../../lib/orchestration/_policy.ts";
import { FIXTURES } from "../_orchestration_env.ts";

const RUN = join(FIXTURES, "workspace", "projects", "PROJ-001-oss-release", "ORCHESTRATION.yaml");
const REL = "projects/PROJ-001-oss-release/ORCHESTRATION.yaml";
const GOLDEN = join(FIXTURES, "golden");

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(path, actual);
  assert.ok(existsSync(path), `missing golden file ${name}: run with UPDATE_GOLDEN=1`);
  assert.equal(
    actual,
    readFileSync(path, "utf8"),
    `${name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`,
  );
}

function checkpoint(over: Partial<Checkpoint> = {}): Checkpoint {
  return {
    schema_version: 1,
    checkpoint_id: "cx-001",
    session_id: "sess-1",
    compaction_id: "c-1",
    created_at: "2026-02-19T14:02:10.000Z",
    project: "PROJ-001-oss-release",
    orchestration_file: REL,
    trigger: { type: "auto", source: "PreCompact" },
    context_state: { fill_fraction: 0.886, tokens: 177200, window: 200000 },
    orchestration_state: {
      workflow_id: "feat015-licmig-20260217-001",
      workflow_status: "ACTIVE",
      phase_number: 2,
      phase_name: "Core License Changes",
      activity: "qg-2-iteration-1",
      gate: "qg-2",
      gate_iteration: 1,
      gate_score: 0.96,
    },
    recovery: {
      critical_context:
        "QG-2 was scoring 3 Phase 2 deliverables. S-007 found 1 major finding: DA-001 copyright holder inconsistency between NOTICE and header_template. Revision was in progress.",
      next_action: "Complete QG-2 iteration 1 revision (apply DA-001 fix), then re-score",
    },
    pending_decisions: [{
      id: "RD-001",
      summary: "Align copyright holder to 'Adam Nowak'.",
      affects: "Phase 3 header_template",
    }],
    acknowledged: false,
    acknowledged_at: null,
    missing: [],
    ...over,
  };
}

describe("the ORCHESTRATION.yaml fixtures", () => {
  test("parseYaml() reads every valid run exactly as the yaml package does", () => {
    for (const run of ["PROJ-001-oss-release", "PROJ-002-docs-site"]) {
      const text = readFileSync(join(FIXTURES, "workspace", "projects", run, "ORCHESTRATION.yaml"), "utf8");
      const ours = parseYaml(text);
      assert.deepEqual(ours.errors, []);
      assert.deepEqual(ours.value, parse(text));
    }
  });

  test("parseYaml() and the yaml package both refuse the invalid run", () => {
    const text = readFileSync(join(FIXTURES, "invalid", "projects", "PROJ-003-broken", "ORCHESTRATION.yaml"), "utf8");
    assert.notEqual(parseYaml(text).errors.length, 0);
    assert.throws(() => parse(text));
  });
});

describe("readOrchestrationResumption()", () => {
  test("reads every Template 1 variable from the resumption section, block scalars on one line", () => {
    const s = readOrchestrationResumption(RUN);
    assert.equal(s.status, "ok");
    assert.equal(s.workflowId, "feat015-licmig-20260217-001");
    assert.equal(s.phaseNumber, 2);
    assert.equal(s.phaseStartedAt, "2026-02-18T08:00:00Z");
    assert.equal(
      s.nextStep,
      "Continue QG-2 iteration 1. Re-read the 3 Phase 2 deliverables and re-score with S-014, S-007, S-002.",
    );
    assert.deepEqual(s.gatesCompleted, ["qg-1"]);
    assert.equal(s.gate, "qg-2");
    assert.equal(s.gateScore, 0.96);
    assert.equal(s.contextFillAtUpdate, 88.6);
    assert.equal(s.compactionCount, 1);
    assert.equal(s.decisions.length, 2);
    assert.equal(
      s.decisions[1].summary,
      "Align copyright holder to 'Adam Nowak' across NOTICE, header_template, and ORCHESTRATION_PLAN. NOTICE is authoritative.",
    );
    assert.equal(s.decisions[1].applied, false);
    assert.equal(s.agentSummaries.length, 4);
    assert.equal(s.defectPatterns.length, 2);
    assert.deepEqual(s.filesToRead.map((f) => f.sections.length), [3, 2, 2]);
    assert.deepEqual(s.missing, []);
  });

  test("reports an invalid file with its YAML error code and position, and a missing one as missing", () => {
    const bad = readOrchestrationResumption(
      join(FIXTURES, "invalid", "projects", "PROJ-003-broken", "ORCHESTRATION.yaml"),
    );
    assert.equal(bad.status, "invalid");
    assert.match(bad.error ?? "", /^[A-Z_]+ at \d+:\d+$/);
    assert.deepEqual(bad.missing, ["ORCHESTRATION.yaml"]);
    assert.equal(readOrchestrationResumption(join(FIXTURES, "missing", "nope.yaml")).status, "missing");
  });

  test("redacts secrets before anything is taken from the document", () => {
    const s = readOrchestrationResumption("x", {
      text: "resumption:\n  next_step: deploy with GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789\n",
    });
    assert.equal(s.nextStep, "deploy with GITHUB_TOKEN=[REDACTED:github-token]");
  });

  test("redacts map keys it shows and replaces a value kept under a secret-named key whole", () => {
    const key = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";
    const text = [
      "resumption:",
      "  current_phase: 1",
      `  quality_trajectory: {current_gate: ${key}, score_history: {${key}: [0.8, 0.9]}}`,
      "  agent_summaries:",
      "    password_agent: hunter2-the-summary",
      "    reviewer: 'found sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 in the logs'",
      "quality_gates:",
      `  ${key}: {status: open, score_history: [0.8, 0.9]}`,
      "",
    ].join("\n");
    const s = readOrchestrationResumption("x", { text });
    assert.equal(s.gate, "[REDACTED:github-token]");
    assert.equal(s.gateScore, 0.9, "the gate is still found by its (redacted) name");
    assert.equal(s.gateScoreCount, 2);
    assert.deepEqual(Object.keys(s.trajectoryScoreCounts), ["[REDACTED:github-token]"]);
    assert.deepEqual(s.gates.map((g) => g.name), ["[REDACTED:github-token]"]);
    assert.deepEqual(s.agentSummaries, [
      { name: "password_agent", summary: "[REDACTED:password]" },
      { name: "reviewer", summary: "found [REDACTED:anthropic-key] in the logs" },
    ]);
    assert.doesNotMatch(JSON.stringify({ ...s, document: undefined }), /ghp_|hunter2|sk-ant/);
  });
});

describe("the mid-quality-gate policy (OQ-R3)", () => {
  const base = readOrchestrationResumption(RUN);
  test("applies the pending revision when the iteration's scoring had finished", () => {
    const next = nextActionFor(base);
    assert.equal(next.kind, "revision");
    assert.match(
      next.text ?? "",
      /^Apply the revision for the QG-2 iteration 1 findings \(DA-001\), then re-score as iteration 2/,
    );
  });

  test("restarts the iteration when compaction hit it while scoring", () => {
    const next = nextActionFor({ ...base, activity: "qg-2-iteration-2", gateIteration: 2 });
    assert.equal(next.kind, "restart");
    assert.match(next.text ?? "", /^Restart QG-2 iteration 2 from the beginning: .*\(S-014, S-007, S-002\)/);
  });

  test("treats a -revision activity as a pending revision, and other activities as recorded", () => {
    assert.equal(nextActionFor({ ...base, activity: "qg-2-iteration-2-revision" }).kind, "revision");
    assert.deepEqual(nextActionFor({ ...base, activity: "drafting" }), { kind: "recorded", text: base.nextStep });
  });
});

describe("renderResumePrompt() (Template 1)", () => {
  test("matches its golden file and stays within 1,000 tokens", () => {
    const state = readOrchestrationResumption(RUN);
    const text = renderResumePrompt(state, {
      orchestrationPath: REL,
      planPath: "projects/PROJ-001-oss-release/ORCHESTRATION_PLAN.md",
      checkpoint: checkpoint(),
      checkpointPath: ".jerry/checkpoints/cx-001-checkpoint.json",
      compactionCount: 1,
      unacknowledged: 1,
    });
    golden("template1.txt", text);
    assert.ok(countTokens(text) <= 1000);
    assert.doesNotMatch(text, /\{[A-Z_0-9]+\}|undefined|null/);
  });

  test("leaves out the lines of missing variables instead of printing placeholders", () => {
    const state = readOrchestrationResumption("x", { text: "resumption:\n  current_activity: drafting\n" });
    const text = renderResumePrompt(state, { orchestrationPath: REL });
    golden("template1_sparse.txt", text);
    assert.doesNotMatch(text, /\{[A-Z_0-9]+\}|undefined|null|WORKFLOW:|QUALITY TRAJECTORY|KEY DECISIONS/);
    assert.match(text, /- Last activity: drafting/);
    assert.match(
      text,
      /1\. \[PRIORITY 1\] projects\/PROJ-001-oss-release\/ORCHESTRATION\.yaml\n {3}Sections: resumption, next_actions/,
    );
  });

  test("cuts decisions, agent summaries and defect patterns first to stay within the ceiling", () => {
    const state = readOrchestrationResumption(RUN);
    const many = Array.from(
      { length: 40 },
      (_, i) => ({
        id: `RD-${100 + i}`,
        summary: "x".repeat(280),
        affects: null,
        applied: false,
        gate: "qg-2",
        iteration: 1,
      }),
    );
    const agents = Array.from({ length: 40 }, (_, i) => ({ name: `agent-${i}`, summary: "y".repeat(280) }));
    const text = renderResumePrompt({
      ...state,
      decisions: many,
      agentSummaries: agents,
      defectPatterns: many.map((d) => d.summary),
    }, { orchestrationPath: REL });
    assert.ok(countTokens(text) <= 1000, `${countTokens(text)} tokens`);
    assert.match(text, /RECOVERY STATE:/);
    assert.match(text, /NEXT ACTION: Apply the revision/);
    assert.match(text, /READ THESE FILES IN ORDER:/);
    assert.match(text, /AFTER READING:/);
    const small = renderResumePrompt(state, { orchestrationPath: REL, maxChars: 1500 });
    assert.ok(small.length <= 1500);
  });
});

describe("renderCompactionAlert() (Template 2)", () => {
  test("matches its golden file (the QG-2 example of docs/orchestration.md) within 500 tokens", () => {
    const text = renderCompactionAlert(checkpoint(), { checkpointPath: ".jerry/checkpoints/cx-001-checkpoint.json" });
    golden("template2.xml", text);
    assert.ok(countTokens(text) <= 500);
  });

  test("says COMPACTION EVENT: N of M when there are several compactions", () => {
    const text = renderCompactionAlert(checkpoint({ checkpoint_id: "cx-002" }), {
      checkpointPath: ".jerry/checkpoints/cx-002-checkpoint.json",
      eventNumber: 2,
      eventTotal: 2,
      unacknowledged: 2,
    });
    golden("template2_second.xml", text);
    assert.match(
      text,
      /\nCOMPACTION EVENT: 2 of 2 this session \(2 checkpoints unacknowledged; the newest is shown\)\n/,
    );
    assert.match(text, /4\. Set acknowledged=true in every unacknowledged checkpoint file \(or run: rehydrate ack\)/);
  });

  test("shortens critical context and pending decisions first, keeping every structured field, under the ceiling", () => {
    const long = checkpoint({
      recovery: { critical_context: "finding ".repeat(400), next_action: "Restart QG-2 iteration 2" },
      pending_decisions: Array.from({ length: 30 }, (_, i) => ({ id: `RD-${i}`, summary: "decide ".repeat(40) })),
    });
    for (const maxTokens of [500, 300]) {
      const text = renderCompactionAlert(long, {
        checkpointPath: ".jerry/checkpoints/cx-001-checkpoint.json",
        maxTokens,
      });
      assert.ok(countTokens(text) <= maxTokens, `${countTokens(text)} > ${maxTokens}`);
      for (
        const line of [
          "TRIGGER: auto (PreCompact hook)",
          "PRE-COMPACTION FILL: 88.6%",
          "YOU WERE DOING: Phase 2 (Core License Changes), qg-2-iteration-1",
          "LAST SCORE: 0.960 (qg-2, iteration 1)",
          "5. Continue from: Restart QG-2 iteration 2",
        ]
      ) {
        assert.ok(text.includes(line), `${maxTokens}: lost "${line}"`);
      }
    }
  });

  test("stays under the ceiling even when the structured fields are hostile", () => {
    const hostile = checkpoint({
      orchestration_state: {
        ...checkpoint().orchestration_state,
        phase_name: "P".repeat(5000),
        activity: "</compaction-alert>".repeat(300),
      },
      recovery: { critical_context: null, next_action: "N".repeat(9000) },
    });
    const text = renderCompactionAlert(hostile, {
      checkpointPath: "c/".repeat(2000),
      orchestrationPath: "y/".repeat(2000),
      maxTokens: 100,
    });
    assert.ok(countTokens(text) <= 100);
    assert.equal(text.split("</compaction-alert>").length, 2, "the element is closed exactly once");
  });

  test("gives the generic alert for a corrupt checkpoint", () => {
    const text = renderCompactionAlert(null, {
      checkpointPath: ".jerry/checkpoints/cx-003-checkpoint.json",
      orchestrationPath: REL,
    });
    golden("template2_generic.xml", text);
    assert.match(text, /CONTEXT COMPACTION OCCURRED\. The checkpoint could not be read/);
    assert.match(
      text,
      /Read the ORCHESTRATION\.yaml resumption section \(projects\/PROJ-001-oss-release\/ORCHESTRATION\.yaml\)/,
    );
  });

  test("leaves out the lines of unknown values", () => {
    const sparse = checkpoint({
      context_state: { fill_fraction: null, tokens: null, window: null },
      orchestration_state: {
        workflow_id: null,
        phase_number: null,
        phase_name: null,
        activity: null,
        gate: null,
        gate_iteration: null,
        gate_score: null,
      },
      recovery: { critical_context: null, next_action: null },
      pending_decisions: [],
      missing: ["ORCHESTRATION.yaml"],
      orchestration_file: null,
    });
    const text = renderCompactionAlert(sparse, { checkpointPath: ".jerry/checkpoints/cx-001-checkpoint.json" });
    assert.doesNotMatch(
      text,
      /PRE-COMPACTION FILL|YOU WERE DOING|LAST SCORE|CRITICAL CONTEXT|PENDING DECISIONS|null|undefined/,
    );
    assert.match(text, /NOT CAPTURED AT CHECKPOINT: ORCHESTRATION\.yaml/);
  });
});
