import { parseYaml } from "../yaml/parse_yaml.ts";
import { redact } from "../redact/redact.ts";
import { secretKeyKind } from "../redact/secret_key_name.ts";
import { clip, oneLine } from "./format.ts";
import { readProjectFile } from "../state/read_project_file.ts";
import { dirname } from "../node/path.ts";

/** One decision carried forward (`resumption.decisions[]`). */
export interface ResumptionDecision {
  id: string | null;
  /** The decision text on one line. */
  summary: string;
  /** What it affects, joined with ", ". */
  affects: string | null;
  /** False (or absent) until the decision has been applied. */
  applied: boolean;
  gate: string | null;
  iteration: number | null;
}

/** One file the resumed session should read (`resumption.files_to_read[]`). */
export interface ResumptionFile {
  path: string;
  priority: number | null;
  sections: string[];
  purpose: string | null;
}

/** A phase as listed in `phases[]`. */
export interface OrchestrationPhase {
  id: number | string | null;
  name: string | null;
  status: string | null;
  startedAt: string | null;
}

/** A quality gate as listed in `quality_gates.<gate>`. */
export interface OrchestrationGate {
  name: string;
  status: string | null;
  scoreHistory: number[];
  currentIteration: number | null;
  /** Verdict recorded for the newest iteration, e.g. REVISE or PASS. */
  lastVerdict: string | null;
  strategies: string[];
  /** Findings as `ID (severity): summary`. */
  findings: string[];
}

/**
 * What an ORCHESTRATION.yaml says about where its run is. Every field is `null` (or empty) when
 * the file does not hold it; `missing` lists the resumption variables that could not be read.
 * Strings are redacted, on one line, and capped in length.
 */
export interface ResumptionState {
  /** The file read (absolute). */
  file: string;
  /** `"ok"`, or why nothing could be read. */
  status: "ok" | "missing" | "unreadable" | "too_large" | "invalid";
  /** For `invalid`: the YAML error code and position, e.g. `MULTILINE_KEY at 8:4`. */
  error: string | null;
  /**
   * The whole parsed document, or `undefined`. NOT redacted: only for comparing two versions of
   * the file; every field below is redacted when it is taken out of it.
   */
  document: unknown;
  workflowId: string | null;
  projectId: string | null;
  planFile: string | null;
  updatedAt: string | null;
  phaseNumber: number | string | null;
  phaseName: string | null;
  /** `started_at` of the current phase in `phases[]`. */
  phaseStartedAt: string | null;
  workflowStatus: string | null;
  activity: string | null;
  lastCheckpoint: string | null;
  /** `resumption.context_fill_at_update` in percent (a value up to 1 is taken as a fraction). */
  contextFillAtUpdate: number | null;
  compactionCount: number | null;
  nextStep: string | null;
  /** `resumption.critical_context`, when the orchestrator wrote one. */
  criticalContext: string | null;
  gatesCompleted: string[] | null;
  gatesRemaining: string[] | null;
  gate: string | null;
  gateIteration: number | null;
  /** Newest score of the current gate (resumption score history, else the gate's own). */
  gateScore: number | null;
  /** How many scores the current gate has recorded. */
  gateScoreCount: number;
  lowestDimension: string | null;
  decisions: ResumptionDecision[];
  agentSummaries: { name: string; summary: string }[];
  defectPatterns: string[];
  filesToRead: ResumptionFile[];
  phases: OrchestrationPhase[];
  gates: OrchestrationGate[];
  /** `resumption.quality_trajectory.score_history` lengths per gate. */
  trajectoryScoreCounts: Record<string, number>;
  missing: string[];
}

/** Options for {@linkcode readOrchestrationResumption}. */
export interface ReadOrchestrationResumptionOptions {
  /** Largest file read, in bytes. Default 1 MiB. */
  maxBytes?: number;
  /** Parse this text instead of reading the file (e.g. the content before an edit). */
  text?: string;
  /**
   * The folder the file must resolve inside (with one link), as `readProjectFile` reads every
   * project path. Default: the run's own folder.
   */
  root?: string;
}

const SHORT = 200;
const LONG = 1200;
const MAX_ITEMS = 50;

/**
 * Reads the `resumption` section of an ORCHESTRATION.yaml (docs/orchestration.md, schema v2.0) with
 * the header, phases and quality gates it refers to. Never throws: a missing, oversized or
 * invalid file gives a state whose `status` says so and whose fields are all `null`. Every string
 * taken from the document is redacted (and one taken from under a secret-named key, such as an
 * agent summary keyed `password_agent`, is replaced whole), as `redactValue` would.
 *
 * @example
 * ```ts
 * import { readOrchestrationResumption } from "./resumption.ts";
 *
 * const state = readOrchestrationResumption("/work/repo/projects/PROJ-001/ORCHESTRATION.yaml");
 * if (state.status === "ok") console.log(state.phaseNumber, state.activity, state.nextStep);
 * ```
 */
export function readOrchestrationResumption(
  path: string,
  options: ReadOrchestrationResumptionOptions = {},
): ResumptionState {
  const state = emptyState(path);
  let text = options.text;
  if (text === undefined) {
    const maxBytes = options.maxBytes ?? 1024 * 1024;
    // Never blocks on a FIFO nor reads a link to /dev/zero forever, nor a file linked in from outside.
    const read = readProjectFile(options.root ?? dirname(path), path, { maxBytes });
    if (!read.ok) {
      return fail(
        state,
        read.problem === "too_large" ? "too_large" : read.problem === "missing" ? "missing" : "unreadable",
      );
    }
    text = read.text;
  }
  const parsed = parseYaml(text, { maxSize: options.maxBytes ?? 1024 * 1024 });
  if (parsed.errors.length > 0) {
    const e = parsed.errors[0];
    state.error = `${e.code} at ${e.line}:${e.column}`;
    return fail(state, "invalid");
  }
  // Redaction happens field by field as values are taken (str(), keyName()): walking the whole
  // document slowed a cold hook (bench/README.md), for strings nothing ever shows.
  const doc = parsed.value;
  state.document = doc;
  if (!isRecord(doc)) {
    state.error = "not a mapping";
    return fail(state, "invalid");
  }
  fill(state, doc);
  return state;
}

function emptyState(file: string): ResumptionState {
  return {
    file,
    status: "ok",
    error: null,
    document: undefined,
    workflowId: null,
    projectId: null,
    planFile: null,
    updatedAt: null,
    phaseNumber: null,
    phaseName: null,
    phaseStartedAt: null,
    workflowStatus: null,
    activity: null,
    lastCheckpoint: null,
    contextFillAtUpdate: null,
    compactionCount: null,
    nextStep: null,
    criticalContext: null,
    gatesCompleted: null,
    gatesRemaining: null,
    gate: null,
    gateIteration: null,
    gateScore: null,
    gateScoreCount: 0,
    lowestDimension: null,
    decisions: [],
    agentSummaries: [],
    defectPatterns: [],
    filesToRead: [],
    phases: [],
    gates: [],
    trajectoryScoreCounts: {},
    missing: [],
  };
}

function fail(state: ResumptionState, status: ResumptionState["status"]): ResumptionState {
  state.status = status;
  state.missing = ["ORCHESTRATION.yaml"];
  return state;
}

function fill(s: ResumptionState, doc: Record<string, unknown>): void {
  const header = record(doc.header);
  const r = record(doc.resumption);
  const q = record(r.quality_trajectory);
  s.workflowId = str(header.workflow_id, SHORT);
  s.projectId = str(header.project_id, SHORT);
  s.planFile = str(header.plan_file, SHORT * 2);
  s.updatedAt = str(r.updated_at, SHORT);
  s.phaseNumber = phaseId(r.current_phase);
  s.phaseName = str(r.current_phase_name, SHORT);
  s.workflowStatus = str(r.workflow_status, SHORT);
  s.activity = str(r.current_activity, SHORT);
  s.lastCheckpoint = str(r.last_checkpoint, SHORT);
  const fillValue = num(r.context_fill_at_update);
  s.contextFillAtUpdate = fillValue === null || fillValue < 0 ? null : fillValue <= 1 ? fillValue * 100 : fillValue;
  const events = record(r.compaction_events);
  s.compactionCount = int(events.count) ?? (Array.isArray(events.events) ? events.events.length : null);
  s.nextStep = str(r.next_step, LONG);
  s.criticalContext = str(r.critical_context, LONG);
  s.gatesCompleted = strList(q.gates_completed);
  s.gatesRemaining = strList(q.gates_remaining);
  s.gate = str(q.current_gate, SHORT);
  s.gateIteration = int(q.current_gate_iteration);
  s.lowestDimension = str(q.lowest_dimension, SHORT);
  const trajectory = record(q.score_history);
  for (const [gate, scores] of Object.entries(trajectory)) {
    if (Array.isArray(scores)) s.trajectoryScoreCounts[keyName(gate)] = scores.length;
  }

  if (Array.isArray(doc.phases)) {
    for (const p of doc.phases.slice(0, MAX_ITEMS)) {
      const ph = record(p);
      s.phases.push({
        id: phaseId(ph.id),
        name: str(ph.name, SHORT),
        status: str(ph.status, SHORT),
        startedAt: str(ph.started_at, SHORT),
      });
    }
  }
  const current = s.phases.find((p) =>
    p.id !== null && s.phaseNumber !== null && String(p.id) === String(s.phaseNumber)
  );
  if (current) {
    s.phaseStartedAt = current.startedAt;
    if (s.phaseName === null) s.phaseName = current.name;
  }
  for (const [key, g] of Object.entries(record(doc.quality_gates))) {
    if (!isRecord(g)) continue;
    const name = keyName(key);
    const iterations = Array.isArray(g.iterations) ? g.iterations.map(record) : [];
    const last = iterations[iterations.length - 1];
    s.gates.push({
      name,
      status: str(g.status, SHORT),
      scoreHistory: numList(g.score_history),
      currentIteration: int(g.current_iteration),
      lastVerdict: last ? str(last.verdict, SHORT) : null,
      strategies: strList(g.strategies) ?? [],
      findings: (Array.isArray(g.findings) ? g.findings : []).slice(0, 10).map(finding).filter((f): f is string =>
        f !== null
      ),
    });
  }
  if (s.gate !== null) {
    const own = numList(Object.entries(trajectory).find(([k]) => keyName(k) === s.gate)?.[1]);
    const gate = s.gates.find((g) => g.name === s.gate);
    const scores = own.length > 0 ? own : gate?.scoreHistory ?? [];
    s.gateScoreCount = Math.max(own.length, gate?.scoreHistory.length ?? 0);
    s.gateScore = scores.length > 0 ? scores[scores.length - 1] : null;
    if (s.gateIteration === null) s.gateIteration = gate?.currentIteration ?? null;
  }
  if (s.gateIteration === null && s.activity !== null) {
    const m = /-iteration-(\d+)/.exec(s.activity);
    if (m) s.gateIteration = Number(m[1]);
  }

  if (Array.isArray(r.decisions)) {
    for (const d of r.decisions.slice(0, MAX_ITEMS)) {
      const dec = record(d);
      const summary = str(dec.decision ?? dec.summary, LONG / 2);
      if (summary === null) continue;
      const affects = Array.isArray(dec.affects) ? strList(dec.affects)?.join(", ") ?? null : str(dec.affects, SHORT);
      s.decisions.push({
        id: str(dec.id, SHORT),
        summary,
        affects: affects === "" ? null : affects,
        applied: dec.applied === true,
        gate: str(dec.gate, SHORT),
        iteration: int(dec.iteration),
      });
    }
  }
  for (const [name, summary] of Object.entries(record(r.agent_summaries)).slice(0, MAX_ITEMS)) {
    const text = underKey(name, str(isRecord(summary) ? summary.summary : summary, LONG / 2));
    if (text !== null) s.agentSummaries.push({ name: keyName(name), summary: text });
  }
  s.defectPatterns = (strList(record(r.defect_summary).recurring_patterns) ?? []).slice(0, MAX_ITEMS);
  if (Array.isArray(r.files_to_read)) {
    for (const f of r.files_to_read.slice(0, 10)) {
      const file: Record<string, unknown> = isRecord(f) ? f : { path: f };
      const path = str(file.path, SHORT * 2);
      if (path === null) continue;
      const sections = Array.isArray(file.sections)
        ? strList(file.sections) ?? []
        : (str(file.sections, SHORT)?.split(/\s*,\s*/) ?? []);
      s.filesToRead.push({ path, priority: int(file.priority), sections, purpose: str(file.purpose, SHORT * 2) });
    }
  }

  const wanted: [string, unknown][] = [
    ["header.workflow_id", s.workflowId],
    ["header.project_id", s.projectId],
    ["resumption", Object.keys(r).length > 0 ? true : null],
    ["resumption.updated_at", s.updatedAt],
    ["resumption.current_phase", s.phaseNumber],
    ["resumption.current_phase_name", s.phaseName],
    ["resumption.current_activity", s.activity],
    ["resumption.next_step", s.nextStep],
    ["resumption.quality_trajectory.current_gate", s.gate],
  ];
  for (const [key, value] of wanted) if (value === null) s.missing.push(key);
}

function finding(value: unknown): string | null {
  const f = record(value);
  const id = str(f.id, 40);
  const summary = str(f.summary, 300);
  if (id === null && summary === null) return str(value, 300);
  const severity = str(f.severity, 20);
  return `${id ?? "finding"}${severity ? ` (${severity})` : ""}${summary ? `: ${summary}` : ""}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/** A map key shown as a name: redacted, on one line, capped. */
function keyName(key: string): string {
  return clip(oneLine(redact(key)), SHORT);
}

/** A value taken from under map key `key`: replaced whole when the key names a secret. */
function underKey(key: string, value: string | null): string | null {
  const kind = value === null ? undefined : secretKeyKind(key);
  return kind === undefined ? value : `[REDACTED:${kind}]`;
}

function str(value: unknown, max: number): string | null {
  if (typeof value === "string") {
    // Redacted before it is put on one line and clipped, so a clip never splits a secret the
    // rules would have recognised.
    const text = oneLine(redact(value));
    return text === "" ? null : clip(text, max);
  }
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

function num(value: unknown): number | null {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function int(value: unknown): number | null {
  const n = num(value);
  return n !== null && Number.isInteger(n) && n >= 0 ? n : null;
}

function phaseId(value: unknown): number | string | null {
  const n = int(value);
  return n !== null ? n : str(value, 60);
}

function strList(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const out: string[] = [];
  for (const item of value.slice(0, MAX_ITEMS)) {
    const s = str(item, 300);
    if (s !== null) out.push(s);
  }
  return out;
}

function numList(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  const out: number[] = [];
  for (const item of value) {
    const n = num(item);
    if (n !== null) out.push(n);
  }
  return out;
}
