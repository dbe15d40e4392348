/**
 * Private helper of `rehydrate status`, `doctor` and `validate`: rule 2 of SECURITY.md for the
 * verbs that read a repository's files. A folder or file of the project is read only through its
 * real path, and only when that lies inside `realpath(projectDir)` (the one check,
 * `realPathInside` of lib/detect/project_boundary.ts, that the hooks and `migrate --apply` use).
 * A linked `02-projects`, project folder, `00-system` or `.jerry` that leads out of the project is
 * named in one neutral line and never read: its content could be anything of the user's.
 *
 * @module
 */

import { existsSync } from "../node/fs.ts";
import { isAbsolute, relative, resolve } from "../node/path.ts";
import { realPathInside } from "../detect/project_boundary.ts";

/** Where a project path leads: its checked real path, out of the project, or nowhere. */
export type Contained = { kind: "inside"; real: string } | { kind: "outside" } | { kind: "missing" };

/**
 * Where `path` (absolute, or relative to `projectDir`) leads: `inside` with the real path to read
 * when it resolves inside the real path of `projectDir`; `outside` when it exists but resolves out
 * of it (a symbolic link on the way), or when the project's own real path cannot be told (fails
 * closed); `missing` when nothing is there (a dangling link included): nothing to read or refuse.
 *
 * @example
 * ```ts
 * import { containedPath } from "./_contained.ts";
 *
 * const at = containedPath("/home/me/app", "00-system/.cache/precompact_state.json");
 * if (at.kind === "inside") readJson(at.real);
 * ```
 */
export function containedPath(projectDir: string, path: string): Contained {
  const real = realPathInside(projectDir, path);
  if (real !== null) return { kind: "inside", real };
  return existsSync(resolve(projectDir, path)) ? { kind: "outside" } : { kind: "missing" };
}

/**
 * True when `path` names, by its text once `..` is resolved, `dir` or something below it: the
 * paths `validate` checks with {@linkcode containedPath}. A path the user names outside the
 * directory (`~/.claude/rehydrate.json`, a state file) is theirs to name and is read as given.
 *
 * @example
 * ```ts
 * import { namedInside } from "./_contained.ts";
 *
 * namedInside("/home/me/app", "02-projects/01-site/01-planning/resume-context.md"); // true
 * namedInside("/home/me/app", "/home/me/.claude/rehydrate.json"); // false
 * ```
 */
export function namedInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(dir, path));
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith("../") && !rel.startsWith("..\\"));
}

/**
 * The one neutral line for refused paths: what they are called in the project, never what they
 * hold.
 *
 * @example
 * ```ts
 * import { outsideLine } from "./_contained.ts";
 *
 * outsideLine(["02-projects"]); // "02-projects resolves outside the project (a symbolic link); not read"
 * ```
 */
export function outsideLine(shown: readonly string[]): string {
  return shown.length === 1
    ? `${shown[0]} resolves outside the project (a symbolic link); not read`
    : `${shown.join(", ")} resolve outside the project (symbolic links); not read`;
}
