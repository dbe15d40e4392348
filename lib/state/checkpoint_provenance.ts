// Rule 4 of SECURITY.md (provenance): a checkpoint in a workspace may have come with the repository
// or from another machine. Only the checkpoints this user's rehydrate wrote may speak in the hooks'
// voice (a resumption prompt, a compaction alert), so each one we write is recorded here, in the
// private state directory a repository cannot write: its real path and its exact text. A file
// whose text differs from the record (written elsewhere, edited since) is not ours.
import { realpathSync } from "../node/fs.ts";
import { hashName } from "../node/hash_name.ts";
import { join } from "../node/path.ts";
import { ensurePrivateDir } from "./ensure_private_dir.ts";
import { readPrivateFile } from "./read_private_file.ts";
import { writeFileAtomic } from "./write_file_atomic.ts";

/** Largest checkpoint recorded or compared, in bytes (checkpoints are read up to 1 MiB). */
const MAX_TEXT_BYTES = 1024 * 1024;

/** The record of `realPath`: `<stateDir>/checkpoints/<hash of the real path>.json`. */
function recordPath(stateDir: string, realPath: string): string {
  return join(stateDir, "checkpoints", `${hashName(realPath)}.json`);
}

/**
 * Where the record of the checkpoint at `path` is (whether or not it exists), or null when `path`
 * has no real path. For callers that must name every file an answer depended on (the usual
 * prompt's memo).
 *
 * @example
 * ```ts
 * import { checkpointRecordPath } from "./checkpoint_provenance.ts";
 *
 * checkpointRecordPath(stateDir, "/w/.jerry/checkpoints/cx-001-checkpoint.json"); // ".../checkpoints/1a2b3c4d.json"
 * ```
 */
export function checkpointRecordPath(stateDir: string, path: string): string | null {
  try {
    return recordPath(stateDir, realpathSync(path));
  } catch {
    return null;
  }
}

/**
 * Records that rehydrate wrote `text` to the checkpoint at `path` (which must exist): its real path
 * and text go to an owner-only file in the private state directory, written atomically. Call it
 * after every write of a checkpoint (a new one, a summary added). Throws when the state directory
 * cannot be written; the checkpoint then counts as written elsewhere, which is the safe side.
 *
 * @example
 * ```ts
 * import { recordCheckpointProvenance } from "./checkpoint_provenance.ts";
 *
 * recordCheckpointProvenance("/home/me/.local/state/rehydrate", "/w/.jerry/checkpoints/cx-001-checkpoint.json", text);
 * ```
 */
export function recordCheckpointProvenance(stateDir: string, path: string, text: string): void {
  const real = realpathSync(path);
  const dir = join(stateDir, "checkpoints");
  ensurePrivateDir(dir);
  writeFileAtomic(recordPath(stateDir, real), JSON.stringify({ schema_version: 1, path: real, text }) + "\n");
}

/**
 * True when this user's rehydrate wrote the checkpoint at `path` with exactly `text` (as read from
 * it): the record {@linkcode recordCheckpointProvenance} left names the same real path and holds
 * the same text. A checkpoint that came with the repository, was written on another machine or
 * by another user, or was edited since, gives false; so does any error. Never throws.
 *
 * @example
 * ```ts
 * import { isRecordedCheckpoint } from "./checkpoint_provenance.ts";
 *
 * if (!isRecordedCheckpoint(stateDir, entry.path, text)) console.log("written elsewhere");
 * ```
 */
export function isRecordedCheckpoint(stateDir: string | null, path: string, text: string): boolean {
  if (stateDir === null || text.length > MAX_TEXT_BYTES) return false;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  const read = readPrivateFile(recordPath(stateDir, real), { maxBytes: MAX_TEXT_BYTES * 2 + 4096 });
  if (!read.ok) return false;
  try {
    const record = JSON.parse(read.text) as { path?: unknown; text?: unknown };
    return record.path === real && record.text === text;
  } catch {
    return false;
  }
}
