/**
 * Private helpers of the delivery guarantee: the latest-compaction record of
 * a session. See `docs/delivery.md`.
 *
 * @module
 */

import { unlinkSync } from "../node/fs.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import {
  claimPath,
  compactionPath,
  compactionsDir,
  followUpPath,
  isCompactionId,
  unsafeDirReason,
} from "../state/files.ts";

/** Which workflow a compaction concerned; null when none was known at PreCompact. */
export type DeliveryWorkflow = "handler" | "worker" | "project" | "orchestration" | "session" | null;

/** `compactions/<key>.json`: the latest compaction of one session. */
export interface CompactionRecord {
  schema_version: 1;
  session_id: string;
  compaction_id: string;
  workflow: DeliveryWorkflow;
  trigger?: "manual" | "auto";
  created_at: string;
}

/**
 * Replaces the session's compaction record with `record`; the delivery and
 * follow-up claims of the compaction it replaces are deleted, so at most one
 * of each per session stays on disk. Throws when the directory is unsafe or the write fails.
 */
export function writeCompactionRecord(stateDir: string, key: string, record: CompactionRecord): void {
  ensurePrivateDir(compactionsDir(stateDir));
  const previous = readCompactionRecord(stateDir, key, record.session_id);
  writeFileAtomic(compactionPath(stateDir, key), JSON.stringify(record) + "\n");
  if (previous.record !== null && previous.record.compaction_id !== record.compaction_id) {
    for (const claim of [claimPath, followUpPath]) {
      try {
        unlinkSync(claim(stateDir, key, previous.record.compaction_id));
      } catch { /* never claimed */ }
    }
  }
}

/** The session's compaction record, or null with the reason it was not usable (`missing` is the quiet case). */
export function readCompactionRecord(
  stateDir: string,
  key: string,
  sessionId: string,
): { record: CompactionRecord | null; problem: string | null } {
  const path = compactionPath(stateDir, key);
  const r = readPrivateFile(path, { maxBytes: 16 * 1024 });
  if (!r.ok) return { record: null, problem: r.reason === "missing" ? null : r.message };
  const dirProblem = unsafeDirReason(compactionsDir(stateDir));
  if (dirProblem !== null) return { record: null, problem: dirProblem };
  try {
    const v = JSON.parse(r.text);
    if (
      v && typeof v === "object" && v.schema_version === 1 && v.session_id === sessionId &&
      isCompactionId(v.compaction_id) &&
      typeof v.created_at === "string"
    ) {
      return { record: v as CompactionRecord, problem: null };
    }
  } catch { /* reported below */ }
  return { record: null, problem: `${path} is malformed` };
}
