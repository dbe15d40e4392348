import type { Checkpoint } from "./checkpoints.ts";
import type { ResumptionState } from "./resumption.ts";
import { type BudgetSection, fitBudget } from "../hook/fit_budget.ts";
import { redact } from "../redact/redact.ts";
import { nextActionFor } from "./_policy.ts";
import { clip, formatScore, oneLine, percent } from "./format.ts";

/** Options for {@linkcode renderResumePrompt}. */
export interface ResumePromptOptions {
  /** The run's ORCHESTRATION.yaml relative to the project directory. */
  orchestrationPath: string;
  /** ORCHESTRATION_PLAN path: `header.plan_file`, or the convention when that file exists. Default none. */
  planPath?: string | null;
  /** Project id when the YAML has none (the run's folder name). */
  projectId?: string | null;
  /** The newest checkpoint of the run, if any. */
  checkpoint?: Checkpoint | null;
  /** Where that checkpoint is, relative to the project directory. */
  checkpointPath?: string | null;
  /** Compactions in the interrupted session (checkpoints of its session). Default: the YAML's count. */
  compactionCount?: number | null;
  /** Unacknowledged checkpoints; when any, the prompt asks to acknowledge them. Default 0. */
  unacknowledged?: number;
  /** Ceiling in tokens (`countTokens`). Default 1,000 (docs/orchestration.md, resumption prompt). */
  maxTokens?: number;
  /** Ceiling in characters, e.g. the hook's output budget. Default none. */
  maxChars?: number;
}

const INTRO = "You are resuming a workflow that was interrupted. Do NOT start over. Your goal is to\n" +
  "continue from the exact point of interruption using the persistent state below.";
const CLOSING = "Do NOT re-read artifacts from completed phases unless specifically needed for the current\n" +
  "task. Minimize context consumption -- you are resuming mid-workflow and context budget\nis limited.";

/**
 * Renders the resumption prompt (docs/orchestration.md), the prompt that lets a new session resume
 * an interrupted orchestration run, from the run's `resumption` section and its newest checkpoint
 * (whichever is newer wins for the phase, activity, gate and next action). Every variable of the
 * template is filled in; a variable with no value is left out with its line (never printed as a
 * `{PLACEHOLDER}`). The next action follows the mid-quality-gate policy. The result fits within
 * `maxTokens` and `maxChars`: decisions, defect patterns and agent summaries are cut first.
 *
 * @example
 * ```ts
 * import { renderResumePrompt } from "./resume_prompt.ts";
 * import { readOrchestrationResumption } from "./resumption.ts";
 *
 * const state = readOrchestrationResumption("/repo/projects/PROJ-001/ORCHESTRATION.yaml");
 * const prompt = renderResumePrompt(state, { orchestrationPath: "projects/PROJ-001/ORCHESTRATION.yaml" });
 * // "You are resuming a workflow that was interrupted. Do NOT start over. …"
 * ```
 */
export function renderResumePrompt(state: ResumptionState, options: ResumePromptOptions): string {
  const cp = options.checkpoint ?? null;
  const ok = state.status === "ok";
  const cpNewer = cp !== null &&
    (!ok || state.updatedAt === null || Date.parse(cp.created_at) > Date.parse(state.updatedAt));
  const os = cp?.orchestration_state;
  const pick = <T>(fromState: T | null, fromCp: T | null | undefined): T | null =>
    cpNewer ? (fromCp ?? fromState ?? null) : (fromState ?? fromCp ?? null);

  const policy = ok ? nextActionFor(state) : { text: null, kind: null };
  const nextAction = text(
    cpNewer ? (cp?.recovery?.next_action ?? policy.text) : (policy.text ?? cp?.recovery?.next_action),
    900,
  );
  const gate = text(pick(state.gate, os?.gate), 60);
  const iteration = pick(state.gateIteration, os?.gate_iteration);
  const score = pick(state.gateScore, os?.gate_score);

  const ids = lines([
    field("WORKFLOW", pick(state.workflowId, os?.workflow_id)),
    field("PROJECT", state.projectId ?? cp?.project ?? options.projectId ?? null),
    field("ORCHESTRATION PLAN", options.planPath ?? null),
  ]);
  const phaseNumber = pick(state.phaseNumber, os?.phase_number);
  const phaseName = text(pick(state.phaseName, os?.phase_name), 120);
  const fillPct = typeof cp?.context_state?.fill_fraction === "number"
    ? percent(cp.context_state.fill_fraction)
    : state.contextFillAtUpdate !== null
    ? (Math.round(state.contextFillAtUpdate * 10) / 10).toFixed(1)
    : null;
  const lastCheckpoint = cp !== null
    ? `${cp.checkpoint_id}${options.checkpointPath ? ` (${options.checkpointPath})` : ""}`
    : state.lastCheckpoint;
  const compactions = options.compactionCount ?? state.compactionCount;
  const recovery = bullets("RECOVERY STATE:", [
    phaseNumber !== null
      ? `Current phase: Phase ${phaseNumber}${phaseName !== null ? ` (${phaseName})` : ""}`
      : phaseName !== null
      ? `Current phase: ${phaseName}`
      : null,
    item("Workflow status", pick(state.workflowStatus, os?.workflow_status ?? null)),
    item("Last activity", pick(state.activity, os?.activity)),
    item("Last checkpoint", lastCheckpoint),
    fillPct !== null ? `Context fill at interruption: ${fillPct}%` : null,
    compactions !== null ? `Compaction events in previous session: ${compactions}` : null,
  ]);
  const quality = bullets("QUALITY TRAJECTORY:", [
    state.gatesCompleted !== null ? `Gates completed: ${state.gatesCompleted.join(", ") || "none"}` : null,
    state.gatesRemaining !== null ? `Gates remaining: ${state.gatesRemaining.join(", ") || "none"}` : null,
    gate !== null ? `Current gate: ${gate}${iteration !== null ? ` (iteration ${iteration})` : ""}` : null,
    score !== null
      ? `Last gate score: ${formatScore(score)}${scoreDetail(gate, iteration, policy.kind === "revision")}`
      : null,
    item("Recurring weak dimension", state.lowestDimension),
  ]);
  const decisions = bullets(
    "KEY DECISIONS (carry forward):",
    state.decisions.map((d) => {
      const where = [d.gate, d.iteration !== null ? `iter ${d.iteration}` : null].filter(Boolean).join(", ");
      const head = d.id !== null ? `${d.id}${where ? ` (${where})` : ""}: ` : where ? `(${where}) ` : "";
      return `${head}${d.summary}${d.affects !== null ? ` Affects ${d.affects}.` : ""}${d.applied ? " [applied]" : ""}`;
    }),
  );
  const agents = bullets("AGENT WORK COMPLETED:", state.agentSummaries.map((a) => `${a.name}: ${a.summary}`));
  const defects = bullets("DEFECT PATTERNS (avoid re-introducing):", state.defectPatterns);

  const files = state.filesToRead.length > 0
    ? [...state.filesToRead].sort((a, b) => (a.priority ?? 1e9) - (b.priority ?? 1e9))
    : [{
      path: options.orchestrationPath,
      priority: 1,
      sections: ["resumption", ...(gate !== null ? [`quality_gates.${gate}`] : []), "next_actions"],
      purpose: "Machine-readable workflow state. Read the resumption section first.",
    }];
  const fileLines = ["READ THESE FILES IN ORDER:"];
  files.forEach((f, i) => {
    fileLines.push(`${i + 1}. [PRIORITY ${f.priority ?? i + 1}] ${f.path}`);
    if (f.sections.length > 0) fileLines.push(`   Sections: ${f.sections.join(", ")}`);
    if (f.purpose !== null) fileLines.push(`   Purpose: ${f.purpose}`);
  });

  const after = [
    "AFTER READING:",
    "1. Confirm you understand the current workflow state",
    "2. Identify what phase/step to continue from",
    nextAction !== null
      ? `3. Proceed with: ${firstSentence(nextAction)}`
      : "3. Proceed with the next step recorded in the resumption section",
  ];
  if ((options.unacknowledged ?? 0) > 0) {
    after.push(
      `4. Set acknowledged=true in the unacknowledged checkpoint file${(options.unacknowledged ?? 0) > 1 ? "s" : ""}${
        options.checkpointPath ? ` (newest: ${options.checkpointPath})` : ""
      }, or run: rehydrate ack`,
    );
  }

  const sections: BudgetSection[] = [
    { id: "intro", priority: 0, text: INTRO },
    { id: "ids", priority: 0, text: ids },
    { id: "recovery", priority: 0, text: recovery },
    {
      id: "next",
      priority: 1,
      text: nextAction !== null ? `NEXT ACTION: ${nextAction}` : "",
      truncatable: true,
      minChars: 60,
    },
    { id: "quality", priority: 1, text: quality },
    {
      id: "decisions",
      priority: 3,
      text: decisions,
      truncatable: true,
      minChars: 80,
      fallback: "KEY DECISIONS: see resumption.decisions in ORCHESTRATION.yaml",
    },
    {
      id: "agents",
      priority: 5,
      text: agents,
      truncatable: true,
      minChars: 60,
      fallback: "AGENT WORK COMPLETED: see resumption.agent_summaries",
    },
    {
      id: "defects",
      priority: 4,
      text: defects,
      truncatable: true,
      minChars: 60,
      fallback: "DEFECT PATTERNS: see resumption.defect_summary",
    },
    { id: "files", priority: 2, text: fileLines.join("\n"), truncatable: true, minChars: 60 },
    { id: "after", priority: 0, text: after.join("\n") },
    { id: "closing", priority: 0, text: CLOSING },
  ].filter((s) => s.text !== "");
  const maxChars = Math.min(options.maxChars ?? Infinity, Math.max(100, options.maxTokens ?? 1000) * 4);
  const fitted = fitBudget(sections, {
    maxChars,
    separator: "\n\n",
    truncationMarker: () => "\n- … (more in the ORCHESTRATION.yaml resumption section)",
  }).text;
  const out = redact(fitted);
  return out.length <= maxChars ? out : clip(out, maxChars);
}

function text(value: unknown, max: number): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? clip(oneLine(value), max) : null;
}

function field(label: string, value: unknown): string | null {
  const v = text(value, 240);
  return v === null ? null : `${label}: ${v}`;
}

function item(label: string, value: unknown): string | null {
  const v = text(value, 240);
  return v === null ? null : `${label}: ${v}`;
}

function lines(items: (string | null)[]): string {
  return items.filter((l): l is string => l !== null).join("\n");
}

function bullets(title: string, items: (string | null)[]): string {
  const kept = items.filter((l): l is string => l !== null);
  return kept.length === 0 ? "" : [title, ...kept.map((l) => `- ${l}`)].join("\n");
}

function scoreDetail(gate: string | null, iteration: number | string | null, preRevision: boolean): string {
  const where = [gate, iteration !== null ? `iter ${iteration}` : null].filter(Boolean).join(" ");
  const detail = [where, preRevision ? "pre-revision" : ""].filter((x) => x !== "").join(", ");
  return detail === "" ? "" : ` (${detail})`;
}

function firstSentence(s: string): string {
  const end = s.indexOf(". ");
  return clip(end > 0 ? s.slice(0, end + 1) : s, 240);
}
