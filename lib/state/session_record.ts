import { join } from "../node/path.ts";
import { ensurePrivateDir } from "./ensure_private_dir.ts";
import { readPrivateFile } from "./read_private_file.ts";
import { sessionKey } from "./session_key.ts";
import { writeFileAtomic } from "./write_file_atomic.ts";

const SOURCES: ReadonlySet<string> = new Set(["startup", "resume", "clear", "compact", "fork"]);

/** What rehydrate remembers about one Claude Code session (`schemas/session_record.v1.json`). */
export interface SessionRecord {
  schema_version: 1;
  session_id: string;
  /** The main-loop model from SessionStart; may carry `[1m]`. */
  model?: string | null;
  /** The last SessionStart source seen. */
  source?: string | null;
  started_at?: string;
  updated_at: string;
  transcript_path?: string;
  cwd?: string;
  [key: string]: unknown;
}

/**
 * Where the record of the session with key `key` lives: `<stateDir>/sessions/<key>.json`.
 *
 * @example
 * ```ts
 * sessionRecordPath("/home/a/.local/state/rehydrate", "sess-1"); // ".../sessions/sess-1.json"
 * ```
 */
export function sessionRecordPath(dir: string, key: string): string {
  return join(dir, "sessions", `${key}.json`);
}

/**
 * The record of the session with key `key` as stored (any JSON object; its fields unchecked), or
 * null when there is none or it is not a JSON object. Never throws.
 *
 * @example
 * ```ts
 * const model = readSessionRecord("/home/a/.local/state/rehydrate", "sess-1")?.model;
 * ```
 */
export function readSessionRecord(dir: string, key: string): Record<string, unknown> | null {
  const read = readPrivateFile(sessionRecordPath(dir, key), { maxBytes: 256 * 1024 });
  if (!read.ok) return null;
  try {
    const parsed: unknown = JSON.parse(read.text);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? parsed as Record<string, unknown>
      : null;
  } catch {
    return null;
  }
}

/**
 * Reads the record of a session from `<stateDir>/sessions/<key>.json`, applies
 * `patch` (a shallow merge; `undefined` values are skipped) and writes it back
 * atomically, owner-only. Returns the new record, or `null` when the session
 * id is not a plain id. A corrupt or unsafe existing record is replaced.
 *
 * @example
 * ```ts
 * updateSessionRecord("/home/a/.local/state/rehydrate", "7da37d46-8061-4f75-801e-26383afad198", { model: "opus[1m]" });
 * ```
 */
export function updateSessionRecord(
  dir: string,
  sessionId: string,
  patch: Partial<SessionRecord>,
  options: { now?: Date } = {},
): SessionRecord | null {
  const key = sessionKey(sessionId);
  if (key === null) return null;
  ensurePrivateDir(join(dir, "sessions"));
  const path = sessionRecordPath(dir, key);
  const now = (options.now ?? new Date()).toISOString();
  let record: SessionRecord = { schema_version: 1, session_id: sessionId, started_at: now, updated_at: now };
  const old = readPrivateFile(path, { maxBytes: 256 * 1024 });
  if (old.ok) {
    try {
      const parsed = JSON.parse(old.text);
      if (parsed && typeof parsed === "object" && parsed.session_id === sessionId) record = parsed as SessionRecord;
    } catch { /* replaced below */ }
  }
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) record[k] = v;
  if (record.source !== undefined && record.source !== null && !SOURCES.has(record.source)) delete record.source;
  record.updated_at = now;
  // Rewritten on every SessionStart and alert delivery: atomic (never torn), not fsynced; a power
  // cut can at worst lose the latest update of this bookkeeping record.
  writeFileAtomic(path, JSON.stringify(record, null, 2) + "\n", { sync: false });
  return record;
}
