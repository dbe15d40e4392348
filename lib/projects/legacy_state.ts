// The design's hand-written `precompact_state.json` read as legacy input (issue #26): the
// design's own example has no `session_id` and a timestamp without a UTC offset, and its older
// variant says `created_at`, `detection_method: "transcript_analysis"` and `fallback_chain`.
// rehydrate keeps writing the strict form (schemas/precompact_state.v1.json); this module turns
// the legacy form into it, for SessionStart, `rehydrate validate` and `rehydrate migrate`.
import { validateSchema } from "../schema/validate_schema.ts";
import { precompactStateSchema } from "./precompact_state_schema.ts";

/** What {@linkcode upgradeLegacyState} made of a legacy state. */
export interface LegacyStateUpgrade {
  /** The state in the strict form, valid against the schema. */
  state: Record<string, unknown>;
  /** What was read leniently, one phrase each, for `rehydrate validate`. */
  notes: string[];
}

/** A date-time without an offset: `2026-01-03T14:00:00`, with optional seconds and fraction. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/;
const METHODS: Record<string, string> = {
  transcript: "transcript",
  transcript_analysis: "transcript",
  cache: "cache",
  fallback: "fallback",
  filesystem: "fallback",
};
/** Keys of the design's variants that the strict form has no place for. */
const DROPPED = ["created_at", "fallback_chain"];

/**
 * Upgrades the design's hand-written state to the strict form, or returns `null` when `value`
 * is no state at all or is wrong in a way no reading fixes (a nested `project_detection`, an
 * unknown confidence, a project id that is not `NN-kebab-case`). A timestamp without an offset
 * is read as local time, as JavaScript reads one (the design's writer used Python's local
 * `datetime.now()`); `created_at` stands in for a missing `timestamp`; `transcript_analysis`
 * and `filesystem` become `transcript` and `fallback`; `unknown` confidence becomes `none`.
 * Callers check the strict schema first and call this only for a state that fails it.
 *
 * @example
 * ```ts
 * const up = upgradeLegacyState({
 *   active_project_id: "24-project-x", confidence: "high",
 *   detection_method: "transcript", timestamp: "2026-01-03T14:00:00",
 * });
 * up?.state.timestamp; // "2026-01-03T14:00:00.000Z" when local time is UTC
 * ```
 */
export function upgradeLegacyState(value: unknown): LegacyStateUpgrade | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const src = value as Record<string, unknown>;
  if (!("active_project_id" in src)) return null;
  const notes: string[] = [];
  const state: Record<string, unknown> = { schema_version: 1 };
  for (const [k, v] of Object.entries(src)) if (!DROPPED.includes(k)) state[k] = v;
  for (const k of DROPPED) if (k in src) notes.push(`${k} dropped`);

  if (state.timestamp === undefined && typeof src.created_at === "string") {
    state.timestamp = src.created_at;
    notes.push("created_at read as timestamp");
  }
  const ts = offsetless(state.timestamp);
  if (ts === null) return null;
  if (ts.changed) notes.push("timestamp has no UTC offset (read as local time)");
  state.timestamp = ts.value;

  if (state.detection_method === undefined) {
    state.detection_method = "transcript";
    notes.push("no detection_method (read as transcript)");
  } else if (typeof state.detection_method === "string" && state.detection_method in METHODS) {
    const m = METHODS[state.detection_method];
    if (m !== state.detection_method) notes.push(`detection_method ${state.detection_method} read as ${m}`);
    state.detection_method = m;
  }
  if (state.confidence === "unknown") {
    state.confidence = "none";
    notes.push("confidence unknown read as none");
  }
  if (Array.isArray(state.last_tool_calls)) {
    let fixed = 0;
    state.last_tool_calls = state.last_tool_calls.map((c) => {
      if (typeof c !== "object" || c === null || !("timestamp" in c)) return c;
      const t = offsetless((c as Record<string, unknown>).timestamp);
      if (t === null || !t.changed) return c;
      fixed++;
      return { ...c, timestamp: t.value };
    });
    if (fixed > 0) notes.push(`${fixed} tool call timestamp(s) without a UTC offset`);
  }
  if (state.session_id === undefined) notes.push("no session_id (SessionStart resumes only its own session's state)");
  if (notes.length === 0) return null;
  if (validateSchema(precompactStateSchema(), state, { maxIssues: 1 }).length > 0) return null;
  return { state, notes };
}

/** The timestamp with an offset; `changed` when it had none. Null when it is no date-time string. */
function offsetless(v: unknown): { value: string; changed: boolean } | null {
  if (typeof v !== "string") return null;
  if (!LOCAL_DATE_TIME.test(v)) return { value: v, changed: false };
  const d = new Date(v.replace(" ", "T"));
  return Number.isNaN(d.getTime()) ? null : { value: d.toISOString(), changed: true };
}
