import { statSync } from "../node/fs.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { type ContextFill, contextFill } from "../transcript/context_fill.ts";
import { readProjectFile } from "../state/read_project_file.ts";
import { MONITOR_STATE_FILE } from "./paths.ts";
import { redact } from "../redact/redact.ts";
import { xmlElement } from "../xml/xml_element.ts";
import { renderXml } from "../xml/render_xml.ts";
import { readResumptionCached } from "./_resumption_cache.ts";
import { listCheckpoints } from "./checkpoints.ts";
import { clip } from "./format.ts";
import { monitorAttrs, type MonitorLevel, monitorLevel, shortMonitorElement } from "./monitor_element.ts";
import { ensureOrchDirs, type OrchRuntime, orchRuntime } from "./_runtime.ts";
import { readSessionView, type SessionView } from "./_session.ts";
import { checkStaleness, type StaleReport } from "./_stale.ts";
import { compactionAlertFor } from "./_alert_delivery.ts";
import { provenanceRecords } from "./provenance.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";

export type { MonitorLevel } from "./monitor_element.ts";

/** The content of `context-monitor-state.json` (`schemas/context_monitor_state.v1.json`). */
export interface ContextMonitorState {
  schema_version: 1;
  session_id: string;
  level: MonitorLevel;
  fill_fraction: number | null;
  tokens: number | null;
  window: number;
  model: string | null;
  updated_at: string;
  resumption_status: "FRESH" | "STALE" | "UNKNOWN";
  reminders_sent: number;
  reminded_level: MonitorLevel | null;
  /** What the resumption status was computed from (ORCHESTRATION.yaml mtime and size, newest checkpoint). */
  resumption_key: string | null;
  /** Why the section is STALE, kept with the key so an unchanged file is not parsed again. */
  resumption_reasons: string[];
}

/**
 * What a prompt that leaves nothing due but the monitor depended on, for the usual prompt's fast
 * path (lib/events/quiet_prompt_memo.ts): the workflow's runtime, the checkpoint files read, how the
 * fill was measured and the state written.
 */
export interface QuietFacts {
  rt: OrchRuntime;
  checkpoints: string[];
  fill: { model: string | null; windowTokens: number | null; budgetBytes: number };
  state: ContextMonitorState;
}

/** Most tokens of the `<context-monitor>` element (docs/orchestration.md: under 200). */
export const MONITOR_MAX_CHARS = 800;

const ACTIONS: Record<Exclude<MonitorLevel, "NOMINAL">, (path: string) => string> = {
  WARNING: (p) =>
    `Context is filling up. Update the resumption section of ${p} at the next state transition and avoid reading files you do not need.`,
  CRITICAL: (p) =>
    `Checkpoint NOW: update the resumption section of ${p} (current_phase, current_activity, next_step, quality_trajectory, decisions, updated_at) before starting new work.`,
  COMPACTION: (p) =>
    `Compaction is imminent. Write the resumption section of ${p} now, before anything else, and do not start a new quality-gate iteration.`,
};

/**
 * UserPromptSubmit for orchestration runs: the context monitor and the compaction alert
 * (docs/orchestration.md). Measures the context fill from the transcript's tail (bounded read),
 * sets the level from `orchestration.thresholds` and always writes
 * `<stateDir>/context-monitor-state.json`. At WARNING and above it returns a `<context-monitor>`
 * element (level, fill, tokens, window, what to do, whether the resumption section is FRESH or
 * STALE; under 200 tokens); after `reminderMax` prompts at one level the element only reports the
 * level. When checkpoints are unacknowledged it adds the full alert once per checkpoint per
 * session, then one-line reminders. Returns `null` and writes nothing when the layout is absent.
 * `options.onQuiet` hears, after the state is written, when the next prompt could differ from this
 * one only by its fill (no alert or reminder due, the level's full reminders used up, one run):
 * what the usual prompt's memo needs. `options.onMonitor` hears that an orchestrated run was found,
 * so the monitor speaks for the fill (the everyday `<context-fill>` line then keeps quiet).
 *
 * @example
 * ```ts
 * import { orchestrationPromptContext } from "./monitor.ts";
 *
 * const userPromptSubmit: HookHandler<"UserPromptSubmit"> = (ctx) => {
 *   const text = orchestrationPromptContext(ctx);
 *   return text ? { json: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: text } } } : null;
 * };
 * ```
 */
export function orchestrationPromptContext(
  ctx: HookContext,
  options: { onQuiet?: (facts: QuietFacts) => void; onMonitor?: () => void } = {},
): string | null {
  const rt = orchRuntime(ctx);
  if (rt === null) return null;
  options.onMonitor?.();
  const config = ctx.config();
  let view: SessionView | null;
  try {
    view = readSessionView(ctx);
  } catch (err) {
    ctx.log(`orchestration: no session record (${(err as Error).message})`);
    view = null;
  }
  const fill = contextFill(ctx.input.transcript_path, {
    model: view?.model,
    windowTokens: config.contextWindow.tokens ?? undefined,
    budgetBytes: config.transcript.scanBudgetBytes,
    stopAtUsage: true,
  });
  const fraction = fill.source === "none" ? null : fill.fraction;
  const t = rt.settings.thresholds;
  const level = monitorLevel(fraction, t);

  const entries = listCheckpoints(rt.paths.checkpointsDir);
  let runNewest: { id: string; createdAt: string } | null = null;
  for (const e of entries) {
    if (e.data !== null && e.data.orchestration_file === rt.layout.active.relPath) {
      runNewest = { id: e.id, createdAt: e.data.created_at };
    }
  }
  const previous = readProjectFile(rt.paths.stateDir, MONITOR_STATE_FILE, { maxBytes: 64 * 1024 });
  let prior: Partial<ContextMonitorState> | null = null;
  if (previous.ok) {
    try {
      prior = JSON.parse(previous.text) as Partial<ContextMonitorState>;
    } catch { /* corrupt: computed afresh */ }
  }
  // Parsing ORCHESTRATION.yaml is most of this hook's cost: the status and its reasons are reused
  // while the file (mtime, size) and the newest checkpoint are unchanged.
  const st = statSync(rt.layout.active.path, { throwIfNoEntry: false });
  const resumptionKey = st ? `${st.mtimeMs}:${st.size}:${runNewest?.id ?? ""}` : null;
  const reuse = resumptionKey !== null && prior?.resumption_key === resumptionKey &&
    (prior.resumption_status === "FRESH" || prior.resumption_status === "STALE" ||
      prior.resumption_status === "UNKNOWN") &&
    Array.isArray(prior.resumption_reasons) && prior.resumption_reasons.every((r) => typeof r === "string");
  const stale: StaleReport = reuse
    ? { status: prior!.resumption_status!, reasons: prior!.resumption_reasons!.slice(0, 10), fields: [] }
    : checkStaleness(readResumptionCached(ctx, rt.layout.active.path), { newestCheckpoint: runNewest });

  let sent = 0;
  if (
    prior && level !== "NOMINAL" && prior.session_id === ctx.input.session_id && prior.reminded_level === level &&
    typeof prior.reminders_sent === "number"
  ) {
    sent = prior.reminders_sent;
  }
  let monitor: string | null = null;
  if (level !== "NOMINAL") {
    const full = sent < rt.settings.reminderMax;
    monitor = renderMonitor(level, fill, fraction, stale, full ? rt.layout.active.relPath : null);
    if (full) sent++;
  }
  const state: ContextMonitorState = {
    schema_version: 1,
    session_id: ctx.input.session_id,
    level,
    fill_fraction: fraction === null ? null : Math.round(fraction * 10000) / 10000,
    tokens: fill.source === "none" ? null : fill.tokens,
    window: fill.window,
    // What this file already holds was redacted when written, and redaction is idempotent: an
    // unchanged model or reused reasons need no second pass (which on the usual prompt would
    // mostly be compiling the redaction prefilter; bench/README.md).
    model: fill.model === undefined ? null : fill.model === prior?.model ? fill.model : redact(fill.model),
    updated_at: ctx.now.toISOString(),
    resumption_status: stale.status,
    reminders_sent: level === "NOMINAL" ? 0 : sent,
    reminded_level: level === "NOMINAL" ? null : level,
    resumption_key: resumptionKey,
    resumption_reasons: reuse ? stale.reasons : stale.reasons.slice(0, 10).map((r) => redact(r)),
  };
  ensureOrchDirs(rt.paths, { checkpoints: false });
  // A cache rewritten on every prompt: atomic, but not worth an fsync each time.
  writeFileAtomic(rt.paths.monitorStatePath, JSON.stringify(state, null, 2) + "\n", { sync: false });

  const alert = compactionAlertFor(ctx, rt, entries, view, { event: "UserPromptSubmit", reminders: true });
  // The next prompt can only differ from this one by its fill when no alert or reminder is due, the
  // level's full reminders are used up and the run is not chosen from the transcript.
  if (
    options.onQuiet && alert === null && (level === "NOMINAL" || sent >= rt.settings.reminderMax) &&
    rt.layout.runs.length === 1
  ) {
    options.onQuiet({
      rt,
      checkpoints: [...entries.map((e) => e.path), ...provenanceRecords(entries)],
      fill: {
        model: view?.model ?? null,
        windowTokens: config.contextWindow.tokens ?? null,
        budgetBytes: config.transcript.scanBudgetBytes,
      },
      state,
    });
  }
  const parts = [monitor, alert].filter((x): x is string => x !== null);
  return parts.length === 0 ? null : parts.join("\n");
}

/** The `<context-monitor>` element; `path` null gives the short form that only reports the level. */
function renderMonitor(
  level: Exclude<MonitorLevel, "NOMINAL">,
  fill: ContextFill,
  fraction: number | null,
  stale: StaleReport,
  path: string | null,
): string {
  const attrs = monitorAttrs(level, fraction, fill.tokens, fill.window, stale.status);
  if (path === null) return shortMonitorElement(attrs);
  const action = ACTIONS[level](clip(path, 160));
  const note = stale.status === "STALE"
    ? ` The resumption section is STALE: ${clip(stale.reasons.join("; "), 200)}.`
    : stale.status === "UNKNOWN"
    ? " Resumption freshness is UNKNOWN: set resumption.updated_at."
    : "";
  for (const text of [action + note, action]) {
    const out = renderXml(xmlElement("context-monitor", attrs, text));
    if (out.length <= MONITOR_MAX_CHARS) return out;
  }
  return shortMonitorElement(attrs);
}
