import type { Checkpoint } from "./checkpoints.ts";
import { xmlElement } from "../xml/xml_element.ts";
import { renderXml } from "../xml/render_xml.ts";
import { redact } from "../redact/redact.ts";
import { clip, formatScore, oneLine, percent } from "./format.ts";

/** Options for {@linkcode renderCompactionAlert}. */
export interface CompactionAlertOptions {
  /** The checkpoint file as the model should open it, e.g. `.jerry/checkpoints/cx-001-checkpoint.json`. */
  checkpointPath: string;
  /** The run's ORCHESTRATION.yaml; default the checkpoint's `orchestration_file`. */
  orchestrationPath?: string | null;
  /** Position of this compaction in its session (COMPACTION EVENT: N of M). */
  eventNumber?: number;
  /** Compactions of that session so far. */
  eventTotal?: number;
  /** Unacknowledged checkpoints, this one included. Default 1. */
  unacknowledged?: number;
  /**
   * Hard ceiling in tokens (`countTokens`, 4 characters each). Default 500 (docs/orchestration.md,
   * "The compaction alert").
   */
  maxTokens?: number;
}

/** Free text is given this much room at first; the ceiling may shorten it further. */
const FREE_TEXT_START = 1200;
/** Structured values are capped so that hostile input cannot crowd out the template. */
const FIELD_MAX = 160;
const PATH_MAX = 240;
const NEXT_MAX = 600;

interface AlertParts {
  event: string | null;
  checkpoint: string;
  trigger: string | null;
  fill: string | null;
  doing: string | null;
  score: string | null;
  critical: string | null;
  decisions: string[];
  missing: string | null;
  yaml: string | null;
  ack: string;
  next: string | null;
}

/**
 * Renders the compaction alert (docs/orchestration.md), the `<compaction-alert>` injected after a
 * compaction, from a checkpoint. Lines whose values are unknown are left out (never a
 * `{PLACEHOLDER}`); with several compactions it says `COMPACTION EVENT: N of M this session`. The
 * result never exceeds `maxTokens`: the free-text fields (critical context, pending decisions, what
 * was missing) are shortened first and dropped if need be, the structured fields only after that. A
 * `null` checkpoint (a corrupt file) gives the generic alert: compaction occurred, read
 * ORCHESTRATION.yaml. Values are redacted and XML-escaped.
 *
 * @example
 * ```ts
 * import { renderCompactionAlert } from "./alert.ts";
 *
 * const text = renderCompactionAlert(checkpoint, { checkpointPath: ".jerry/checkpoints/cx-001-checkpoint.json" });
 * // "<compaction-alert>\nCONTEXT COMPACTION OCCURRED. …\n</compaction-alert>"
 * ```
 */
export function renderCompactionAlert(checkpoint: Checkpoint | null, options: CompactionAlertOptions): string {
  const maxChars = Math.max(100, options.maxTokens ?? 500) * 4;
  const unacked = options.unacknowledged ?? 1;
  if (checkpoint === null) return genericAlert(options, maxChars);
  const parts = alertParts(checkpoint, options, unacked);
  let text = renderParts(parts);
  if (text.length <= maxChars) return text;

  // Free text first: shrink critical context and decisions to what is left, then drop them.
  const fixed = renderParts({ ...parts, critical: null, decisions: [], missing: null }).length;
  let room = maxChars - fixed - 60;
  const shrunk = { ...parts, missing: null as string | null };
  if (room > 80) {
    const criticalRoom = Math.floor(room * 0.6);
    shrunk.critical = parts.critical === null ? null : clip(parts.critical, criticalRoom);
    room -= shrunk.critical?.length ?? 0;
    shrunk.decisions = [];
    for (const d of parts.decisions) {
      if (room < 40) break;
      const line = clip(d, Math.min(d.length, room - 4));
      shrunk.decisions.push(line);
      room -= line.length + 3;
    }
    if (shrunk.decisions.length < parts.decisions.length) {
      shrunk.decisions.push(`(${parts.decisions.length - shrunk.decisions.length} more in the checkpoint file)`);
    }
    text = renderParts(shrunk);
    if (text.length <= maxChars) return text;
  }
  const bare = { ...parts, critical: null, decisions: [] as string[], missing: null };
  text = renderParts(bare);
  if (text.length <= maxChars) return text;
  // Then the structured fields, longest first.
  for (const cut of [80, 40, 20]) {
    bare.next = bare.next === null ? null : clip(bare.next, cut * 2);
    bare.doing = bare.doing === null ? null : clip(bare.doing, cut);
    bare.score = bare.score === null ? null : clip(bare.score, cut);
    bare.yaml = bare.yaml === null ? null : clip(bare.yaml, cut * 2);
    bare.checkpoint = clip(bare.checkpoint, cut * 2);
    text = renderParts(bare);
    if (text.length <= maxChars) return text;
  }
  return genericAlert(options, maxChars);
}

function alertParts(cp: Checkpoint, o: CompactionAlertOptions, unacked: number): AlertParts {
  const os = cp.orchestration_state ?? {} as Checkpoint["orchestration_state"];
  const field = (v: unknown, max = FIELD_MAX): string | null =>
    typeof v === "string" && v.trim() !== ""
      ? clip(oneLine(redact(v)), max)
      : typeof v === "number" && Number.isFinite(v)
      ? String(v)
      : null;

  const triggerType = field(cp.trigger?.type);
  const triggerSource = field(cp.trigger?.source);
  const fillFraction = cp.context_state?.fill_fraction;
  const phase = field(os.phase_number);
  const phaseName = field(os.phase_name);
  const activity = field(os.activity);
  let doing: string | null = null;
  if (phase !== null) doing = `Phase ${phase}${phaseName !== null ? ` (${phaseName})` : ""}`;
  else if (phaseName !== null) doing = phaseName;
  if (activity !== null) doing = doing === null ? activity : `${doing}, ${activity}`;
  let score: string | null = null;
  if (typeof os.gate_score === "number" && Number.isFinite(os.gate_score)) {
    const gate = field(os.gate, 40);
    const iteration = typeof os.gate_iteration === "number" ? `iteration ${os.gate_iteration}` : null;
    const detail = [gate, iteration].filter(Boolean).join(", ");
    score = `${formatScore(os.gate_score)}${detail ? ` (${detail})` : ""}`;
  }
  const decisions: string[] = [];
  for (const d of Array.isArray(cp.pending_decisions) ? cp.pending_decisions : []) {
    const summary = field(d?.summary, FREE_TEXT_START);
    if (summary === null) continue;
    const id = field(d.id, 40);
    const affects = field(d.affects, FIELD_MAX);
    decisions.push(`${id !== null ? `${id}: ` : ""}${summary}${affects !== null ? ` Affects ${affects}.` : ""}`);
  }
  const missing = Array.isArray(cp.missing) && cp.missing.length > 0
    ? clip(cp.missing.map(String).join(", "), 300)
    : null;
  let event: string | null = null;
  const total = o.eventTotal ?? 1;
  if (total > 1 || unacked > 1) {
    event = `COMPACTION EVENT: ${o.eventNumber ?? total} of ${total} this session`;
    if (unacked > 1) event += ` (${unacked} checkpoints unacknowledged; the newest is shown)`;
  }
  return {
    event,
    checkpoint: clip(redact(o.checkpointPath), PATH_MAX),
    trigger: triggerType === null ? null : `${triggerType}${triggerSource !== null ? ` (${triggerSource} hook)` : ""}`,
    fill: typeof fillFraction === "number" && Number.isFinite(fillFraction) ? `${percent(fillFraction)}%` : null,
    doing,
    score,
    critical: field(cp.recovery?.critical_context, FREE_TEXT_START),
    decisions,
    missing,
    yaml: field(o.orchestrationPath === undefined ? cp.orchestration_file : o.orchestrationPath, PATH_MAX),
    ack: unacked > 1
      ? "Set acknowledged=true in every unacknowledged checkpoint file (or run: rehydrate ack)"
      : "Set checkpoint acknowledged=true in the checkpoint file",
    next: field(cp.recovery?.next_action, NEXT_MAX),
  };
}

function renderParts(p: AlertParts): string {
  const lines: string[] = [
    "CONTEXT COMPACTION OCCURRED. Some conversation history was compressed by Claude Code.",
    "You may have lost track of recent work. Re-orient using the data below.",
  ];
  if (p.event !== null) lines.push(p.event);
  lines.push("", `CHECKPOINT: ${p.checkpoint}`);
  if (p.trigger !== null) lines.push(`TRIGGER: ${p.trigger}`);
  if (p.fill !== null) lines.push(`PRE-COMPACTION FILL: ${p.fill}`);
  if (p.doing !== null || p.score !== null) {
    lines.push("");
    if (p.doing !== null) lines.push(`YOU WERE DOING: ${p.doing}`);
    if (p.score !== null) lines.push(`LAST SCORE: ${p.score}`);
  }
  if (p.critical !== null) lines.push("", "CRITICAL CONTEXT:", p.critical);
  if (p.decisions.length > 0) lines.push("", "PENDING DECISIONS:", ...p.decisions.map((d) => `- ${d}`));
  if (p.missing !== null) lines.push("", `NOT CAPTURED AT CHECKPOINT: ${p.missing}`);
  let step = 1;
  lines.push(
    "",
    "IMMEDIATE ACTIONS:",
    `${step++}. Read checkpoint file: ${p.checkpoint}`,
    `${step++}. Read ORCHESTRATION.yaml resumption section${p.yaml !== null ? `: ${p.yaml}` : ""}`,
    `${step++}. Merge checkpoint data into resumption section if checkpoint is newer`,
    `${step++}. ${p.ack}`,
    `${step++}. Continue from: ${p.next ?? "the operation that was interrupted (see the checkpoint file)"}`,
  );
  return renderXml(xmlElement("compaction-alert", null, "\n" + lines.join("\n") + "\n"));
}

function genericAlert(o: CompactionAlertOptions, maxChars: number): string {
  const yaml = o.orchestrationPath ? clip(redact(o.orchestrationPath), PATH_MAX) : null;
  const body = (checkpoint: string, path: string | null): string =>
    renderXml(xmlElement(
      "compaction-alert",
      null,
      "\nCONTEXT COMPACTION OCCURRED. The checkpoint could not be read" +
        (checkpoint !== "" ? ` (${checkpoint})` : "") +
        `.\nRead the ORCHESTRATION.yaml resumption section${
          path !== null ? ` (${path})` : ""
        } to re-orient, then continue the interrupted work.\n`,
    ));
  let text = body(clip(redact(o.checkpointPath), PATH_MAX), yaml);
  if (text.length > maxChars) text = body("", yaml === null ? null : clip(yaml, 60));
  if (text.length > maxChars) text = body("", null);
  return text;
}
