/**
 * Private helper of `rehydrate install` / `uninstall`: reading a settings file and writing its
 * new text safely (backup first, atomic replace, the file's mode kept, a symbolic link followed
 * so a dotfiles link stays a link).
 *
 * @module
 */

import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync } from "../node/fs.ts";
import { dirname } from "../node/path.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";

/** The settings text, null when the file does not exist, or why it cannot be read. */
export function readSettings(path: string): { text: string | null } | { error: string } {
  try {
    return { text: readFileSync(path, "utf8") };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOENT") return { text: null };
    return { error: `cannot read ${path}: ${code ?? String(err)}` };
  }
}

/** `20260102T030405Z`: a backup suffix that sorts by time. */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replace(/[-:]/g, "");
}

/**
 * Writes `text` to the settings file at `path`, first copying the old file (when there is one)
 * to `<file>.bak-<stamp>`. Returns the backup path, or null when there was nothing to back up.
 * Throws on failure (the caller prints one line).
 */
export function writeSettings(path: string, text: string, options: { now: Date; newMode: number }): string | null {
  let target = path;
  let mode = options.newMode;
  let backup: string | null = null;
  if (existsSync(path)) {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o777;
    const stamp = backupStamp(options.now);
    backup = `${target}.bak-${stamp}`;
    for (let n = 1; existsSync(backup); n++) backup = `${target}.bak-${stamp}-${n}`;
    copyFileSync(target, backup);
  } else {
    mkdirSync(dirname(path), { recursive: true });
  }
  writeFileAtomic(target, text, { mode });
  return backup;
}
