/**
 * Private helpers of the re-read and delivery modules: where their files live
 * in the state directory, and the checks that make a file there trustworthy.
 *
 * Layout (every name built from a key `sessionKey()` accepted):
 * - `markers/<key>.json`: the one-shot re-read marker (`schemas/reread_marker.v1.json`)
 * - `sessions/<key>.role.json`: the handler registration
 * - `compactions/<key>.json`: the latest compaction of the session
 * - `compactions/<key>.<compactionId>.delivered`: its delivery claim, created exclusively
 * - `restores/<project key>.<compactionId>.json`: what was given back after that compaction
 *
 * @module
 */

import { closeSync, constants, fstatSync, lstatSync, openSync, statSync } from "../node/fs.ts";
import { readFd } from "../node/read_fd.ts";
import { join } from "../node/path.ts";

/** Directory of the one-shot markers. */
export function markersDir(stateDir: string): string {
  return join(stateDir, "markers");
}

/** The marker file of a session key. */
export function markerPath(stateDir: string, key: string): string {
  return join(stateDir, "markers", `${key}.json`);
}

/** Directory of the role registrations (shared with the session records). */
export function sessionsDir(stateDir: string): string {
  return join(stateDir, "sessions");
}

/** The handler registration of a session key. */
export function rolePath(stateDir: string, key: string): string {
  return join(stateDir, "sessions", `${key}.role.json`);
}

/** Directory of the compaction records and delivery claims. */
export function compactionsDir(stateDir: string): string {
  return join(stateDir, "compactions");
}

/** The latest-compaction record of a session key. */
export function compactionPath(stateDir: string, key: string): string {
  return join(stateDir, "compactions", `${key}.json`);
}

/** The delivery claim of one compaction of a session key. */
export function claimPath(stateDir: string, key: string, compactionId: string): string {
  return join(stateDir, "compactions", `${key}.${compactionId}.delivered`);
}

/**
 * The follow-up claim of one compaction of a session key: taken by the first prompt after the
 * delivery that gives what the compaction's summary left out.
 */
export function followUpPath(stateDir: string, key: string, compactionId: string): string {
  return join(stateDir, "compactions", `${key}.${compactionId}.followup`);
}

/**
 * Directory of the restore records: what rehydrate gave back after each compaction, per project
 * (`restores/<project key>.<compactionId>.json`, `schemas/restore_record.v1.json`).
 */
export function restoresDir(stateDir: string): string {
  return join(stateDir, "restores");
}

const COMPACTION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** True when `id` can be part of a file name (the ids we make always can). */
export function isCompactionId(id: unknown): id is string {
  return typeof id === "string" && COMPACTION_ID.test(id);
}

/** A new compaction id: base-36 milliseconds, then 48 random bits, so ids sort by time and never collide. */
export { newCompactionId } from "./new_compaction_id.ts";

/** The current user id, or -1 where there is none (Windows). */
export function currentUid(): number {
  return typeof process.getuid === "function" ? process.getuid() : -1;
}

/**
 * Why a directory we read trusted files from is not private, or null when it
 * is: it must be a real directory (not a link) owned by us that neither group
 * nor others can write. Never changes anything: a reader refuses, it does not
 * repair (a writer uses `ensurePrivateDir`, which tightens).
 */
export function unsafeDirReason(path: string): string | null {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    return `cannot inspect ${path}: ${(err as { code?: string }).code ?? String(err)}`;
  }
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!st.isDirectory()) return `${path} is not a directory`;
  if (process.platform === "win32") return null;
  const uid = currentUid();
  if (uid >= 0 && st.uid !== uid) return `${path} is owned by uid ${st.uid}`;
  if ((st.mode & 0o022) !== 0) return `${path} is writable by group or others (mode ${(st.mode & 0o777).toString(8)})`;
  return null;
}

/** Why a file we are about to trust is unsafe (from `lstat`), or null. */
export function unsafeFileReason(
  path: string,
  st: { isSymbolicLink(): boolean; isFile(): boolean; uid: number },
): string | null {
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!st.isFile()) return `${path} is not a regular file`;
  const uid = currentUid();
  if (uid >= 0 && st.uid !== uid) return `${path} is owned by uid ${st.uid}`;
  return null;
}

const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;

/**
 * Reads a user file (a dispatch file, the handler state file, the dispatch
 * path file): follows links, as the user's own tools would, but opens without
 * blocking and reads only regular files, at most `maxBytes` of them. Returns
 * null when there is nothing usable. Never throws.
 */
export function readUserFile(path: string, maxBytes: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    return new TextDecoder().decode(readFd(fd, Math.min(st.size, maxBytes)));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** True when `path` names an existing regular file (following links). */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
