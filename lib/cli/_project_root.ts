/**
 * Private helper of the verbs: which project a command means. Claude Code runs the hooks of the
 * folder it was started in, usually a repository's root, while a user types `rehydrate status` in
 * whatever subdirectory the shell is in: run from `src/`, the verbs used to report "not
 * registered" while the root's hooks ran, and `install` made a stray `src/.claude/` (issue #37).
 * Without `--project`, the project is the nearest folder upward that has a `.claude/` folder (not
 * the home directory's, which is the user's settings) or a `.git`, else the working directory. The
 * search stops below the home directory and below a folder others may write to (`/tmp`).
 *
 * @module
 */

import { existsSync, statSync } from "../node/fs.ts";
import { dirname, join, resolve } from "../node/path.ts";
import { isDir } from "./_install_detect.ts";

/** The project a verb works on, and how it was found. */
export interface ProjectRoot {
  /** The project directory, absolute. */
  dir: string;
  /** `--project`, the nearest `.claude/` or `.git` upward, or the working directory (none found). */
  found: "option" | ".claude" | ".git" | "cwd";
}

/**
 * The project a verb means: `option` (`--project DIR`, resolved against `cwd`) when given, else
 * the nearest folder from `cwd` upward holding a `.claude/` folder (the home directory's does not
 * count) or a `.git` (a folder, or a file as in a worktree), else `cwd`. It looks no higher than
 * below the home directory, and never in a folder others may write to.
 *
 * @example
 * ```ts
 * projectRoot({ cwd: "/work/repo/src", homeDir: "/home/me" }, undefined);
 * // { dir: "/work/repo", found: ".git" } when /work/repo is the repository
 * ```
 */
export function projectRoot(env: { cwd: string; homeDir: string }, option: string | undefined): ProjectRoot {
  if (option !== undefined) return { dir: resolve(env.cwd, option), found: "option" };
  const home = resolve(env.homeDir);
  const cwd = resolve(env.cwd);
  let dir = cwd;
  for (let depth = 0; depth < 256; depth++) {
    if (dir !== home && isDir(join(dir, ".claude"))) return { dir, found: ".claude" };
    if (existsSync(join(dir, ".git")) && dir !== home) return { dir, found: ".git" };
    const up = dirname(dir);
    // Not past the home directory (a dotfiles repository there is no project), and not into a
    // folder anyone may write to (/tmp): a .claude/ someone else put there is not this project's.
    if (up === dir || dir === home || up === home || writableByOthers(up)) break;
    dir = up;
  }
  return { dir: cwd, found: "cwd" };
}

/**
 * The line a verb prints when the project is not the working directory, so the user sees which
 * folder (and so which settings files) it used; null when they are the same.
 *
 * @example
 * ```ts
 * rootLine({ dir: "/work/repo", found: ".git" }, "/work/repo/src");
 * // "Project: /work/repo (the nearest folder above /work/repo/src with .git)"
 * ```
 */
export function rootLine(root: ProjectRoot, cwd: string): string | null {
  if (root.found === "option" || root.found === "cwd" || root.dir === resolve(cwd)) return null;
  return `Project: ${root.dir} (the nearest folder above ${resolve(cwd)} with ${root.found})`;
}

function writableByOthers(path: string): boolean {
  try {
    return process.platform !== "win32" && (statSync(path).mode & 0o002) !== 0;
  } catch {
    return true;
  }
}
