// Private helper of lib/projects/session_start.ts: reads the PreCompact state that belongs to THIS
// session and marks it delivered. The per-session copy in the private state directory comes
// first; the flat workspace file is used only when its session_id is this session's, so another
// session's state is never consumed.
import { dirname, join } from "../node/path.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { readProjectFile } from "../state/read_project_file.ts";
import { sessionKey } from "../state/session_key.ts";
import { validateSchema } from "../schema/validate_schema.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { precompactStateSchema } from "./precompact_state_schema.ts";
import { describeJsonError } from "../config/json_syntax_error.ts";
import { upgradeLegacyState } from "./legacy_state.ts";

/** `precompact_state.json` as SessionStart reads it. */
export interface PrecompactState {
  active_project_id: string | null;
  confidence: "high" | "medium" | "low" | "none";
  detection_method: "transcript" | "cache" | "fallback";
  timestamp: string;
  session_id?: string;
  trigger?: "manual" | "auto";
  compaction_id?: string;
  working_set?: { path: string; score: number; reasons: string[] }[];
  last_tool_calls?: { tool: string; file?: string; timestamp?: string }[];
  delivered?: { at: string; compaction_id: string } | null;
  /** The detection's `switchedToSkill` (case 4 of docs/projects.md). */
  switched_to_skill?: string | null;
  [key: string]: unknown;
}

/** What {@linkcode readSessionState} found. */
export type SessionStateRead =
  | { kind: "none" }
  | { kind: "invalid"; where: "session" | "flat"; detail: string }
  | { kind: "ok"; where: "session" | "flat"; state: PrecompactState; compactionId: string; sessionPath: string | null };

/** Path of the per-session copy, or `null` for an unsafe session id. */
export function sessionStatePath(stateDir: string, sessionId: string): string | null {
  const key = sessionKey(sessionId);
  return key === null ? null : join(stateDir, "sessions", `${key}.precompact.json`);
}

/** Reads this session's state: the per-session copy, else the flat file if it names this session. */
export function readSessionState(
  sessionId: string,
  where: { stateDir: string | null; projectDir: string; stateFile: string },
): SessionStateRead {
  const sessionPath = where.stateDir === null ? null : sessionStatePath(where.stateDir, sessionId);
  let invalid: SessionStateRead | null = null;
  if (sessionPath !== null) {
    const r = readPrivateFile(sessionPath, { maxBytes: 256 * 1024 });
    if (r.ok) {
      const parsed = parseState(r.text);
      if (typeof parsed === "string") invalid = { kind: "invalid", where: "session", detail: parsed };
      else if (parsed.session_id === undefined || parsed.session_id === sessionId) {
        return { kind: "ok", where: "session", state: parsed, compactionId: compactionIdOf(parsed), sessionPath };
      }
    } else if (r.reason !== "missing") {
      invalid = { kind: "invalid", where: "session", detail: r.message };
    }
  }
  // The repository's own file: read only where it resolves inside the project, with one link (a
  // linked folder or a hard link would let <resume-status> say whether any file of the user's
  // exists and is JSON; issue #36, N5).
  const r = readProjectFile(where.projectDir, where.stateFile, { maxBytes: 256 * 1024 });
  if (r.ok) {
    const parsed = parseState(r.text);
    if (typeof parsed === "string") {
      // Only report a broken flat file when nothing better was found; we cannot tell whose it is.
      return invalid ?? { kind: "invalid", where: "flat", detail: parsed };
    }
    if (parsed.session_id === sessionId) {
      return { kind: "ok", where: "flat", state: parsed, compactionId: compactionIdOf(parsed), sessionPath };
    }
  }
  return invalid ?? { kind: "none" };
}

/** The state, or a one-line reason it is not valid. */
function parseState(text: string): PrecompactState | string {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    // Code and position only: JSON.parse's message quotes the text, which reaches <resume-status>.
    return `Cannot parse the state file: ${describeJsonError(text)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "The state file is not a JSON object";
  const issues = validateSchema(precompactStateSchema(), value, { maxIssues: 3 });
  if (issues.length === 0) return value as PrecompactState;
  // The design's hand-written form (no offset on the timestamp, ...) is read as legacy input.
  const legacy = upgradeLegacyState(value);
  if (legacy !== null) return legacy.state as PrecompactState;
  return issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; ");
}

/** The state's `compaction_id`, else its `timestamp` (one PreCompact run writes one timestamp). */
export function compactionIdOf(state: PrecompactState): string {
  return state.compaction_id ?? state.timestamp;
}

/** True when this compaction's state was injected already. */
export function isDelivered(state: PrecompactState, compactionId: string): boolean {
  return state.delivered !== undefined && state.delivered !== null && state.delivered.compaction_id === compactionId;
}

/**
 * Writes the per-session copy back with `delivered` set (atomic, owner-only), so the state is
 * kept for inspection and a crash before this point loses nothing. Returns false on failure.
 */
export function markDelivered(sessionPath: string, state: PrecompactState, compactionId: string, now: Date): boolean {
  try {
    ensurePrivateDir(dirname(sessionPath));
    const next: PrecompactState = { ...state, delivered: { at: now.toISOString(), compaction_id: compactionId } };
    writeFileAtomic(sessionPath, JSON.stringify(next, null, 2) + "\n");
    return true;
  } catch {
    return false;
  }
}
