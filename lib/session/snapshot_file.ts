import { lstatSync, readdirSync, unlinkSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { validateSchema } from "../schema/validate_schema.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { sessionsDir, unsafeDirReason } from "../state/files.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { sessionKey } from "../state/session_key.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { sessionSnapshotSchema } from "./session_snapshot_schema.ts";
import type { SessionSnapshot } from "./snapshot.ts";

/**
 * Largest snapshot file written or read back. A snapshot at the default caps is tens of kilobytes;
 * at every cap of the schema, in three-byte characters, it would be about this size.
 */
export const MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024;
const SUFFIX = ".snapshot.json";
/**
 * Which of a session's two snapshot files: the one PreCompact (or SessionStart's rebuild) saved
 * for the compaction, or the checkpoint the background Stop hook keeps between compactions
 * (`sessions/<key>.checkpoint.json`, the same schema, `built_by: "checkpoint"`): what PreCompact
 * continues when it is newer, so that it does not read the rows before it again.
 */
export type SnapshotKind = "snapshot" | "checkpoint";
const SUFFIXES: Record<SnapshotKind, string> = { snapshot: SUFFIX, checkpoint: ".checkpoint.json" };

/**
 * Where the snapshot of `sessionId` lives: `<stateDir>/sessions/<key>.snapshot.json` (the
 * checkpoint: `<key>.checkpoint.json`), or null when the id is not a plain id (`sessionKey`), so a
 * hostile id names no path.
 *
 * @example
 * ```ts
 * import { sessionSnapshotPath } from "./snapshot_file.ts";
 * sessionSnapshotPath("/home/me/.local/state/rehydrate", "7da37d46-8061-4f75-801e-26383afad198");
 * // "/home/me/.local/state/rehydrate/sessions/7da37d46-8061-4f75-801e-26383afad198.snapshot.json"
 * sessionSnapshotPath("/home/me/.local/state/rehydrate", "../etc/passwd"); // null
 * ```
 */
export function sessionSnapshotPath(
  stateDir: string,
  sessionId: string,
  kind: SnapshotKind = "snapshot",
): string | null {
  const key = sessionKey(sessionId);
  return key === null ? null : join(sessionsDir(stateDir), key + SUFFIXES[kind]);
}

/**
 * Writes `snapshot` to {@linkcode sessionSnapshotPath}, atomically (temp file, fsync, rename),
 * mode 0600 in a 0700 directory. The snapshot is checked against
 * `schemas/session_snapshot.v1.json` first. Returns the path, or null when the session id is not
 * a plain id (nothing is written). Throws when the snapshot fails the schema or is larger than
 * {@linkcode MAX_SNAPSHOT_BYTES}, the directory is unsafe or the write fails; hooks catch it and
 * fail open.
 *
 * @example
 * ```ts
 * import { buildSessionSnapshot } from "./snapshot.ts";
 * import { writeSessionSnapshot } from "./snapshot_file.ts";
 * const snapshot = buildSessionSnapshot("/tmp/session.jsonl", { sessionId: "7da37d46-8061-4f75-801e-26383afad198", cwd: "/home/me/app" });
 * writeSessionSnapshot("/home/me/.local/state/rehydrate", snapshot);
 * ```
 */
export function writeSessionSnapshot(
  stateDir: string,
  snapshot: SessionSnapshot,
  kind: SnapshotKind = "snapshot",
): string | null {
  const path = sessionSnapshotPath(stateDir, snapshot.session_id, kind);
  if (path === null) return null;
  const issues = validateSchema(sessionSnapshotSchema(), snapshot, { maxIssues: 3 });
  if (issues.length > 0) {
    throw new Error(
      `Cannot write the session snapshot: ${issues.map((i) => `${i.path || "/"} ${i.message}`).join("; ")}`,
    );
  }
  const bytes = new TextEncoder().encode(JSON.stringify(snapshot) + "\n");
  if (bytes.length > MAX_SNAPSHOT_BYTES) {
    throw new Error(`Cannot write the session snapshot: ${bytes.length} bytes is over ${MAX_SNAPSHOT_BYTES}`);
  }
  ensurePrivateDir(sessionsDir(stateDir));
  writeFileAtomic(path, bytes);
  return path;
}

/** What {@linkcode readSessionSnapshot} found. */
export interface ReadSessionSnapshotResult {
  /** The snapshot, or null. */
  snapshot: SessionSnapshot | null;
  /** Why a file that exists was not used (for the debug log); null when it was used or there is none. */
  problem: string | null;
}

/**
 * Reads the snapshot of `sessionId` back: only a regular file owned by the user (no link, no FIFO),
 * at most {@linkcode MAX_SNAPSHOT_BYTES}, in a directory only the user can write, that parses,
 * belongs to this session and passes `schemas/session_snapshot.v1.json`. Anything else gives a
 * null snapshot and, unless the file is simply missing, the problem. Never throws.
 *
 * @example
 * ```ts
 * import { readSessionSnapshot } from "./snapshot_file.ts";
 * const { snapshot, problem } = readSessionSnapshot("/home/me/.local/state/rehydrate", "7da37d46-8061-4f75-801e-26383afad198");
 * if (snapshot === null && problem !== null) console.error(problem);
 * ```
 */
export function readSessionSnapshot(
  stateDir: string,
  sessionId: string,
  kind: SnapshotKind = "snapshot",
): ReadSessionSnapshotResult {
  const path = sessionSnapshotPath(stateDir, sessionId, kind);
  if (path === null) return { snapshot: null, problem: null };
  const r = readPrivateFile(path, { maxBytes: MAX_SNAPSHOT_BYTES });
  if (!r.ok) return { snapshot: null, problem: r.reason === "missing" ? null : r.message };
  const dirProblem = unsafeDirReason(sessionsDir(stateDir));
  if (dirProblem !== null) return { snapshot: null, problem: dirProblem };
  let value: unknown;
  try {
    value = JSON.parse(r.text);
  } catch {
    return { snapshot: null, problem: `${path} is not JSON` };
  }
  const issues = validateSchema(sessionSnapshotSchema(), value, { maxIssues: 1 });
  if (issues.length > 0) {
    return { snapshot: null, problem: `${path} fails the schema at ${issues[0].path || "/"}: ${issues[0].message}` };
  }
  const snapshot = value as SessionSnapshot;
  if (snapshot.session_id !== sessionId) return { snapshot: null, problem: `${path} belongs to another session` };
  return { snapshot, problem: null };
}

/** Options of {@linkcode sweepSessionSnapshots}. */
export interface SweepSessionSnapshotsOptions {
  /** Snapshots not written for this long are removed. Default seven days. */
  maxAgeMs?: number;
  /** Clock. Default now. */
  now?: Date;
  /** Most directory entries looked at. Default 1,000. */
  maxEntries?: number;
}

/**
 * Removes the snapshots, checkpoints and marks of sessions not compacted for `maxAgeMs`: regular
 * files named `*.snapshot.json`, `*.checkpoint.json` or `*.mark` in `<stateDir>/sessions/`, never
 * links or anything else. Returns how many were removed. Never throws.
 *
 * @example
 * ```ts
 * import { sweepSessionSnapshots } from "./snapshot_file.ts";
 * sweepSessionSnapshots("/home/me/.local/state/rehydrate", { maxAgeMs: 7 * 86_400_000 });
 * ```
 */
export function sweepSessionSnapshots(stateDir: string, options: SweepSessionSnapshotsOptions = {}): number {
  const dir = sessionsDir(stateDir);
  const cutoff = (options.now ?? new Date()).getTime() - (options.maxAgeMs ?? 7 * 86_400_000);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names.slice(0, options.maxEntries ?? 1000)) {
    const ours = name.endsWith(SUFFIX) || name.endsWith(SUFFIXES.checkpoint) || name.endsWith(".mark");
    if (!ours || name.startsWith(".")) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isFile() || st.mtimeMs > cutoff) continue;
      unlinkSync(path);
      removed++;
    } catch { /* gone already */ }
  }
  return removed;
}
