/**
 * Private helper of the verbs: which project a command means. Claude Code runs the hooks of the
 * folder it was started in, usually a repository's root, while a user types `rehydrate status` in
 * whatever subdirectory the shell is in: run from `src/`, the verbs used to report "not
 * registered" while the root's hooks ran, and `install` made a stray `src/.claude/` (issue #37).
 * Without `--project`, the project is the nearest folder upward that has a `.claude/` folder (not
 * the home directory's, which is the user's settings) or a `.git`, else the working directory.
 *
 * @module
 */

import { existsSync, statSync } from "../node/fs.ts";
import { dirname, join, resolve } from "../node/path.ts";

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
 * count) or a `.git` (a folder, or a file as in a worktree), else `cwd`.
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
  let dir = resolve(env.cwd);
  for (let depth = 0; depth < 256; depth++) {
    if (dir !== home && isDir(join(dir, ".claude"))) return { dir, found: ".claude" };
    if (existsSync(join(dir, ".git"))) return { dir, found: ".git" };
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return { dir: resolve(env.cwd), found: "cwd" };
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

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
