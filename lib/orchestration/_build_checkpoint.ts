import type { Checkpoint, CheckpointDecision } from "./checkpoints.ts";
import type { ResumptionState } from "./resumption.ts";
import { nextActionFor } from "./_policy.ts";
import { clip, formatScore } from "./format.ts";

/** Inputs of {@linkcode buildCheckpoint}. */
export interface CheckpointInputs {
  number: number;
  sessionId: string;
  compactionId: string;
  now: Date;
  /** The run's folder name, used when the YAML has no project id. */
  runId: string | null;
  /** The run's ORCHESTRATION.yaml relative to the project directory. */
  orchestrationFile: string | null;
  state: ResumptionState | null;
  trigger: string | undefined;
  source: "PreCompact" | "PostCompact";
  fill: { fraction: number | null; tokens: number | null; window: number | null } | null;
  /** File names that could not be read, e.g. context-monitor-state.json. */
  missingFiles: string[];
}

/** Builds the checkpoint object (not yet redacted) for number `n`; see `schemas/checkpoint.v1.json`. */
export function buildCheckpoint(i: CheckpointInputs): Checkpoint {
  const s = i.state;
  const ok = s !== null && s.status === "ok";
  const next = ok ? nextActionFor(s) : { text: null, kind: null };
  const cp: Checkpoint = {
    schema_version: 1,
    checkpoint_id: `cx-${String(i.number).padStart(3, "0")}`,
    compaction_id: i.compactionId,
    created_at: i.now.toISOString(),
    project: (ok ? s.projectId : null) ?? i.runId,
    orchestration_file: i.orchestrationFile,
    trigger: { type: i.trigger === "manual" ? "manual" : "auto", source: i.source },
    context_state: {
      fill_fraction: i.fill?.fraction ?? null,
      tokens: i.fill?.tokens ?? null,
      window: i.fill?.window ?? null,
    },
    orchestration_state: {
      workflow_id: ok ? s.workflowId : null,
      workflow_status: ok ? s.workflowStatus : null,
      phase_number: ok ? s.phaseNumber : null,
      phase_name: ok ? s.phaseName : null,
      activity: ok ? s.activity : null,
      gate: ok ? s.gate : null,
      gate_iteration: ok ? s.gateIteration : null,
      gate_score: ok ? s.gateScore : null,
    },
    recovery: {
      critical_context: ok ? criticalContext(s, next.kind) : null,
      next_action: next.text,
    },
    pending_decisions: ok ? pendingDecisions(s) : [],
    acknowledged: false,
    acknowledged_at: null,
    missing: [],
  };
  if (i.sessionId !== "") cp.session_id = i.sessionId;
  const missing = new Set<string>();
  if (s === null || s.status !== "ok") missing.add("ORCHESTRATION.yaml");
  for (const f of i.missingFiles) missing.add(f);
  if (cp.project === null) missing.add("project");
  if (cp.orchestration_file === null) missing.add("orchestration_file");
  if (cp.context_state.fill_fraction === null) missing.add("context_state.fill_fraction");
  for (const [key, value] of Object.entries(cp.orchestration_state)) {
    if (value === null && key !== "workflow_status") missing.add(`orchestration_state.${key}`);
  }
  if (cp.recovery.next_action === null) missing.add("recovery.next_action");
  cp.missing = [...missing];
  return cp;
}

function criticalContext(s: ResumptionState, kind: string | null): string | null {
  if (s.criticalContext !== null) return s.criticalContext;
  const parts: string[] = [];
  const phase = s.phaseNumber !== null
    ? `Phase ${s.phaseNumber}${s.phaseName ? ` (${s.phaseName})` : ""}`
    : s.phaseName;
  if (phase) parts.push(`${phase}${s.activity ? `, activity ${s.activity}` : ""}.`);
  else if (s.activity) parts.push(`Activity ${s.activity}.`);
  if (s.gate !== null) {
    const gate = `${s.gate.toUpperCase()}${s.gateIteration !== null ? ` iteration ${s.gateIteration}` : ""}`;
    const info = s.gates.find((g) => g.name === s.gate);
    if (kind === "revision") {
      parts.push(
        `${gate} scoring had finished${s.gateScore !== null ? ` at ${formatScore(s.gateScore)}` : ""}${
          info?.lastVerdict ? ` (${info.lastVerdict})` : ""
        }; the revision was in progress.`,
      );
    } else if (kind === "restart") {
      parts.push(
        `${gate} was being scored when compaction hit${
          s.gateScore !== null ? `; last recorded score ${formatScore(s.gateScore)}` : ""
        }.`,
      );
    } else if (s.gateScore !== null) {
      parts.push(`Last ${s.gate.toUpperCase()} score ${formatScore(s.gateScore)}.`);
    }
    if (info && info.findings.length > 0) parts.push(`Open findings: ${info.findings.join("; ")}.`);
  }
  return parts.length === 0 ? null : clip(parts.join(" "), 800);
}

function pendingDecisions(s: ResumptionState): CheckpointDecision[] {
  const out: CheckpointDecision[] = [];
  for (const d of s.decisions) {
    if (d.applied) continue;
    const item: CheckpointDecision = { summary: d.summary };
    if (d.id !== null) item.id = d.id;
    if (d.affects !== null) item.affects = d.affects;
    out.push(item);
    if (out.length === 50) break;
  }
  return out;
}
