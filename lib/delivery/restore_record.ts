/**
 * The restore records: what rehydrate gave back after each compaction of a project, so that
 * `rehydrate status` can say when the last compactions were, what came back and whether it
 * arrived, and `rehydrate status --last` can print the exact text the model got (issue #37).
 * `restores/<project key>.<compactionId>.json` in the private state directory, owner-only,
 * written atomically and checked against `schemas/restore_record.v1.json` when written and read;
 * the newest {@linkcode RESTORES_KEPT} of a project are kept.
 *
 * @module
 */
import { readdirSync, unlinkSync } from "../node/fs.ts";
import { hashName } from "../node/hash_name.ts";
import { join, resolve } from "../node/path.ts";
import { validateSchema } from "../schema/validate_schema.ts";
import { restoreRecordSchema } from "./restore_record_schema.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { isCompactionId, restoresDir } from "../state/files.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";

/** How many restore records of one project are kept: the newest. */
export const RESTORES_KEPT = 10;
/** Largest record read: four texts of at most 10,000 characters, escaped. */
const MAX_BYTES = 256 * 1024;

/** One delivery after a compaction: which hook, when, what. */
export interface RestorePart {
  by: "session-start" | "user-prompt-submit";
  at: string;
  /** Characters (UTF-16 units) of `text`. */
  chars: number;
  /** rehydrate's elements in the text. */
  elements: string[];
  /** What came back, in words. */
  summary: string;
  /** The line shown to the user, when one was. */
  message?: string;
  /** The exact text the model got. */
  text: string;
}

/** `restores/<project key>.<compactionId>.json`. */
export interface RestoreRecord {
  schema_version: 1;
  project_dir: string;
  session_id: string;
  compaction_id: string;
  trigger?: "manual" | "auto";
  compacted_at: string;
  /** The context given back right after the compaction; null until delivered. */
  delivered: RestorePart | null;
  /** What the first prompt after the delivery added; null until it ran. */
  follow_up: RestorePart | null;
}

/** The file-name key of a project: a hash of its absolute path (the record holds the path itself). */
function projectKey(projectDir: string): string {
  return hashName(resolve(projectDir));
}

/**
 * Where the record of one compaction of a project lives, or null for an id that cannot be part of
 * a file name.
 *
 * @example
 * ```ts
 * restorePath("/home/me/.local/state/rehydrate", "/work/shop", "mie1x8k2-4f2a9c31d07e");
 * ```
 */
export function restorePath(stateDir: string, projectDir: string, compactionId: string): string | null {
  if (!isCompactionId(compactionId)) return null;
  return join(restoresDir(stateDir), `${projectKey(projectDir)}.${compactionId}.json`);
}

/**
 * Reads one record; null when it is missing, unsafe (a link, another owner), fails the schema or
 * belongs to another project (a hash shared by two paths).
 *
 * @example
 * ```ts
 * const record = readRestoreRecord(path, "/work/shop");
 * ```
 */
export function readRestoreRecord(path: string, projectDir: string): RestoreRecord | null {
  const read = readPrivateFile(path, { maxBytes: MAX_BYTES });
  if (!read.ok) return null;
  try {
    const value = JSON.parse(read.text);
    if (validateSchema(restoreRecordSchema(), value, { maxIssues: 1 }).length > 0) return null;
    return (value as RestoreRecord).project_dir === resolve(projectDir) ? value as RestoreRecord : null;
  } catch {
    return null;
  }
}

/**
 * Writes a record (checked against the schema first), then removes the project's records beyond
 * the newest {@linkcode RESTORES_KEPT} (compaction ids sort by time). Throws when the record is
 * invalid, the directory is unsafe or the write fails; hooks catch it and fail open.
 *
 * @example
 * ```ts
 * writeRestoreRecord(stateDir, { schema_version: 1, project_dir: "/work/shop", ... });
 * ```
 */
export function writeRestoreRecord(stateDir: string, record: RestoreRecord): void {
  const issues = validateSchema(restoreRecordSchema(), record, { maxIssues: 3 });
  if (issues.length > 0) throw new Error(`restore record refused: ${issues[0].path} ${issues[0].message}`);
  const path = restorePath(stateDir, record.project_dir, record.compaction_id);
  if (path === null) throw new Error("restore record refused: compaction id");
  const dir = restoresDir(stateDir);
  ensurePrivateDir(dir);
  // Not fsynced: losing the newest record to a power cut costs a line of `rehydrate status`, and
  // SessionStart(compact) is the start the user waits for.
  writeFileAtomic(path, JSON.stringify(record) + "\n", { sync: false });
  const prefix = `${projectKey(record.project_dir)}.`;
  const mine = readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith(".json")).sort();
  for (const old of mine.slice(0, Math.max(0, mine.length - RESTORES_KEPT))) {
    try {
      unlinkSync(join(dir, old));
    } catch { /* gone already */ }
  }
}

/**
 * The project's records, newest first (at most {@linkcode RESTORES_KEPT}); unreadable or foreign
 * ones are left out. Never throws.
 *
 * @example
 * ```ts
 * const [last] = readRestoreRecords(stateDir, "/work/shop");
 * ```
 */
export function readRestoreRecords(stateDir: string, projectDir: string): RestoreRecord[] {
  const dir = restoresDir(stateDir);
  const prefix = `${projectKey(projectDir)}.`;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix) && n.endsWith(".json")).sort().reverse();
  } catch {
    return [];
  }
  const out: RestoreRecord[] = [];
  for (const name of names.slice(0, RESTORES_KEPT)) {
    const r = readRestoreRecord(join(dir, name), projectDir);
    if (r !== null) out.push(r);
  }
  return out;
}
