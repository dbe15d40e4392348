import { lstatSync, renameSync, unlinkSync } from "../node/fs.ts";
import { randomHex } from "../node/random_hex.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import type { RereadMarker } from "./marker_write.ts";
import { sessionKey } from "../state/session_key.ts";
import { isCompactionId, markerPath, markersDir, unsafeDirReason, unsafeFileReason } from "../state/files.ts";

/** Options for {@linkcode consumeRereadMarker}. */
export interface ConsumeRereadMarkerOptions {
  /** The current time. Default `new Date()`. */
  now?: Date;
  /** A marker older than this is stale: deleted and ignored. Default 86400 (one day). */
  maxAgeSeconds?: number;
  /** Where refusals are reported. Default: nowhere. */
  log?: (message: string) => void;
}

const SESSION_TYPES = new Set(["handler", "worker", "project", "orchestration", "session"]);

/**
 * Takes the one-shot re-read marker of a session, at most once across every
 * process: the marker is renamed to a name private to this call (a rename is
 * atomic, so of several hooks racing for it exactly one wins), read from
 * there, and deleted. Returns the marker, or null when there is none, another
 * hook consumed it first, it is stale (older than `maxAgeSeconds`; it is
 * deleted) or malformed (deleted). Refuses, leaving it in place and logging
 * why, a marker that is a symbolic link, not a regular file, not owned by the
 * current user, or in a directory that is a link, is not ours, or that group
 * or others can write. A session id that is not a plain id is refused. The
 * usual case, no marker, costs one `lstat`. Never throws.
 *
 * @example
 * ```ts
 * const marker = consumeRereadMarker(ctx.stateDir(), ctx.input.session_id, { now: ctx.now, log: ctx.log });
 * if (marker) console.log(marker.reason);
 * ```
 */
export function consumeRereadMarker(
  stateDir: string,
  sessionId: string,
  options: ConsumeRereadMarkerOptions = {},
): RereadMarker | null {
  const log = options.log ?? ((_: string) => {});
  const key = sessionKey(sessionId);
  if (key === null) {
    log("re-read marker: session id refused");
    return null;
  }
  const path = markerPath(stateDir, key);
  let st;
  try {
    // No exception for the usual missing marker: this runs before every tool call.
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (st === undefined) return null;
  const problem = unsafeDirReason(markersDir(stateDir)) ?? unsafeFileReason(path, st);
  if (problem !== null) {
    log(`re-read marker refused: ${problem}`);
    return null;
  }
  const taken = `${path}.consumed.${process.pid}.${randomHex(4)}`;
  try {
    renameSync(path, taken);
  } catch {
    return null; // another hook of this session took it first
  }
  try {
    // Checked again on the taken name: the file may have been swapped between lstat and rename.
    const r = readPrivateFile(taken, { maxBytes: 64 * 1024 });
    if (!r.ok) {
      log(`re-read marker refused: ${r.message}`);
      return null;
    }
    const marker = parseMarker(r.text, sessionId);
    if (marker === null) {
      log(`re-read marker dropped: ${path} is malformed`);
      return null;
    }
    const created = Date.parse(marker.created_at);
    const maxAgeMs = (options.maxAgeSeconds ?? 86400) * 1000;
    const now = (options.now ?? new Date()).getTime();
    if (!Number.isFinite(created) || now - created > maxAgeMs) {
      log(`re-read marker dropped: stale (written ${marker.created_at})`);
      return null;
    }
    return marker;
  } finally {
    try {
      unlinkSync(taken);
    } catch { /* already gone */ }
  }
}

function parseMarker(text: string, sessionId: string): RereadMarker | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const m = v as Record<string, unknown>;
  if (m.schema_version !== 1 || m.session_id !== sessionId) return null;
  if (typeof m.session_type !== "string" || !SESSION_TYPES.has(m.session_type)) return null;
  if (!isCompactionId(m.compaction_id)) return null;
  if (!Array.isArray(m.files) || m.files.length > 50 || !m.files.every((f) => typeof f === "string" && f !== "")) {
    return null;
  }
  if (typeof m.reason !== "string" || m.reason === "" || m.reason.length > 10000) return null;
  if (typeof m.created_at !== "string") return null;
  return m as unknown as RereadMarker;
}
