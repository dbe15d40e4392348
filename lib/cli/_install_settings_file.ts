/**
 * Private helper of `rehydrate install`, `uninstall` and `doctor`: reading a settings file and
 * writing its new text safely (backup first, atomic replace, the file's mode kept, a symbolic link
 * followed so a dotfiles link stays a link, but never out of the project for a project's file).
 *
 * @module
 */

import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "../node/fs.ts";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "../node/path.ts";
import { readPrivateBytes } from "../state/read_private_file.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";

/** Largest settings file read: Claude Code's own are a few KiB. */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

/** Why a settings file was not read. A closed set. */
export type SettingsErrorCode = "outside" | "not_regular" | "too_large" | "unreadable";

/** A settings file as read: its text (null when there is none) and what a rewrite needs. */
export interface SettingsText {
  text: string | null;
  /** The bytes as they were on disk, for the backup; null when there is no file. */
  bytes: Uint8Array | null;
  /** The file's permission bits; null when there is no file. */
  mode: number | null;
}

/** Options for {@linkcode readSettings} and {@linkcode writeSettings}. */
export interface SettingsScope {
  /**
   * The project directory a project's settings file must stay in: the file and its `.claude`
   * folder may be links, but not to somewhere outside it. Unset for the user's own settings,
   * where a dotfiles link may point anywhere. Default unset.
   */
  root?: string;
  /** Largest file read, in bytes. Default {@linkcode MAX_SETTINGS_BYTES}. */
  maxBytes?: number;
}

/**
 * The settings text, null when the file does not exist, or why it is not read: a link (the file
 * or its `.claude` folder) out of `root`, a FIFO, device, socket or directory in its place (never
 * opened blocking), a file larger than `maxBytes`, or an error. The message is one line without
 * the verb's prefix. Never throws.
 *
 * @example
 * ```ts
 * const r = readSettings("/work/repo/.claude/settings.json", { root: "/work/repo" });
 * if ("error" in r) console.error(`rehydrate install: ${r.error}; not changed`);
 * ```
 */
export function readSettings(
  path: string,
  scope: SettingsScope = {},
): SettingsText | { error: string; code: SettingsErrorCode } {
  const escape = linkProblem(path, scope.root);
  if (escape) return escape;
  const maxBytes = scope.maxBytes ?? MAX_SETTINGS_BYTES;
  const r = readPrivateBytes(path, { maxBytes, requireOwner: false, followLinks: true });
  if (r.ok) {
    return {
      text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(r.bytes),
      bytes: r.bytes,
      mode: r.mode & 0o777,
    };
  }
  switch (r.reason) {
    case "missing":
      return { text: null, bytes: null, mode: null };
    case "not_regular":
      return { error: `${path} is not a regular file (a FIFO, device, socket or directory)`, code: "not_regular" };
    case "too_large":
      return { error: `${path} is larger than ${sizeName(maxBytes)}`, code: "too_large" };
    default:
      return {
        error: `cannot read ${path}: ${r.message.replace(/^Cannot (open|read) [^:]*: /, "")}`,
        code: "unreadable",
      };
  }
}

/**
 * Why a project's settings file must not be used: its `.claude` folder or the file itself is a
 * symbolic link resolving outside `root`, or a link loop. Null when it may be read and written.
 */
function linkProblem(path: string, root: string | undefined): { error: string; code: SettingsErrorCode } | null {
  const dir = dirname(path);
  const base = root === undefined ? null : realOr(root);
  const name = (p: string) => (root === undefined ? p : relative(root, p).split(sep).join("/"));
  for (const [p, what] of [[dir, "directory"], [path, "file"]] as const) {
    let st;
    try {
      st = lstatSync(p);
    } catch {
      return null; // missing: nothing below it exists either, and a write creates it inside
    }
    if (!st.isSymbolicLink()) continue;
    let real: string;
    try {
      real = realpathSync(p);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === "ELOOP") return { error: `${name(p)} is a link loop`, code: "unreadable" };
      // A dangling link: judge where it points.
      try {
        real = resolve(dirname(p), readlinkSync(p));
      } catch {
        return { error: `cannot read ${p}: ${code ?? String(err)}`, code: "unreadable" };
      }
    }
    if (base !== null && !isInside(base, real)) {
      return { error: `${name(p)} is a link to a ${what} outside the project`, code: "outside" };
    }
  }
  return null;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

function sizeName(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** What {@linkcode writeSettings} throws when a link was swapped in after the read. */
export class SettingsRefused extends Error {
  override name = "SettingsRefused";
}

/** The one line a verb prints (after its prefix) when {@linkcode writeSettings} threw. */
export function writeFailure(path: string, err: unknown): string {
  if (err instanceof SettingsRefused) return `${err.message}; not changed`;
  return `cannot write ${path}: ${(err as { code?: string }).code ?? String(err)}`;
}

/** `20260102T030405Z`: a backup suffix that sorts by time. */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/** Options for {@linkcode writeSettings}. */
export interface WriteSettingsOptions extends SettingsScope {
  /** Clock, for the backup name. */
  now: Date;
  /** Mode of a file created new. */
  newMode: number;
  /** The file as {@linkcode readSettings} read it: the backup holds these bytes, so the file is not opened again. */
  old: SettingsText;
  /** Backups of this file kept, the newest; older ones are deleted. Default {@linkcode KEEP_BACKUPS}. */
  keepBackups?: number;
}

/** How many backups of a settings file are kept beside it. */
export const KEEP_BACKUPS = 3;

/**
 * The backups of a settings file beside it (`<file>.bak-<stamp>`), oldest first: the stamp sorts
 * by time.
 *
 * @example
 * ```ts
 * listBackups("/w/.claude/settings.local.json"); // ["/w/.claude/settings.local.json.bak-20261125T180000Z"]
 * ```
 */
export function listBackups(path: string): string[] {
  const prefix = basename(path) + ".bak-";
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(prefix)).sort().map((n) => join(dirname(path), n));
}

function pruneBackups(path: string, keep: number): void {
  const all = listBackups(path);
  for (const old of all.slice(0, Math.max(0, all.length - keep))) {
    try {
      unlinkSync(old);
    } catch { /* gone already, or not ours to remove: the next install tries again */ }
  }
}

/**
 * Writes `text` to the settings file at `path`, first writing the old bytes (when there is a file)
 * to `<file>.bak-<stamp>` and deleting all but the newest `keepBackups` backups. Returns the
 * backup path, or null when there was nothing to back up.
 * A link is followed (a dotfiles link stays a link), after checking again that it does not leave
 * `root`. Throws on failure (the caller prints one line).
 */
export function writeSettings(path: string, text: string, options: WriteSettingsOptions): string | null {
  const escape = linkProblem(path, options.root);
  if (escape) throw new SettingsRefused(escape.error);
  let target = path;
  let mode = options.newMode;
  let backup: string | null = null;
  const old = options.old;
  if (old.bytes !== null && existsSync(path)) {
    target = realpathSync(path);
    mode = old.mode ?? mode;
    const stamp = backupStamp(options.now);
    backup = `${target}.bak-${stamp}`;
    for (let n = 1; existsSync(backup); n++) backup = `${target}.bak-${stamp}-${n}`;
    writeFileSync(backup, old.bytes, { flag: "wx", mode });
    chmodSync(backup, mode);
    pruneBackups(target, options.keepBackups ?? KEEP_BACKUPS);
  } else {
    mkdirSync(dirname(path), { recursive: true });
  }
  writeFileAtomic(target, text, { mode });
  return backup;
}

/**
 * Deletes a settings file left holding nothing (uninstall took out all it had), with the backups
 * of it that `holdsOnlyOurs` says held nothing else either, and its `.claude` folder when that is
 * then empty. A link is not deleted (it belongs to the user's dotfiles): the caller writes the
 * empty text through it instead, and gets false. Returns true when the file was deleted; throws
 * like {@linkcode writeSettings}.
 *
 * @example
 * ```ts
 * deleteSettings("/w/.claude/settings.local.json", { root: "/w", holdsOnlyOurs: (t) => t.trim() === "{}" });
 * ```
 */
export function deleteSettings(
  path: string,
  options: SettingsScope & { holdsOnlyOurs: (text: string) => boolean },
): boolean {
  const escape = linkProblem(path, options.root);
  if (escape) throw new SettingsRefused(escape.error);
  if (!lstatSync(path).isFile()) return false;
  unlinkSync(path);
  for (const backup of listBackups(path)) {
    const read = readSettings(backup, options);
    if (!("error" in read) && read.text !== null && options.holdsOnlyOurs(read.text)) {
      try {
        unlinkSync(backup);
      } catch { /* left as it is */ }
    }
  }
  try {
    // lib/node/fs.ts has no rmdirSync: an empty folder, checked just before, is removed.
    if (readdirSync(dirname(path)).length === 0) rmSync(dirname(path), { recursive: true });
  } catch { /* the user's files stay */ }
  return true;
}
