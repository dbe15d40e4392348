import { realpathSync } from "../node/fs.ts";
import { isAbsolute, relative, resolve } from "../node/path.ts";
import { normalizePath, resolvePath } from "./_paths.ts";

/** Where files shown as project files must lie: see {@linkcode projectBoundary}. */
export interface ProjectBoundary {
  /** The project directory, normalised. */
  readonly dir: string;
  /**
   * True when `path` lies inside the project by its text, once `..` is resolved: under the
   * directory as given or, when it exists, under its real path. A relative path is read against
   * `base` (default, and when empty: the project directory).
   */
  inside(path: string, base?: string): boolean;
  /**
   * {@linkcode ProjectBoundary.inside}, and, when the project exists on disk, the real path of the
   * file (or of its nearest existing folder, for a file not written yet) inside the project's
   * real path: a link in the project pointing out of it leads outside. When the project does not
   * exist (a recorded session read elsewhere) only the text is checked. Fails closed: a path whose
   * real path cannot be told (no permission, a link loop) is outside.
   */
  resolvesInside(path: string, base?: string): boolean;
}

/** Folders walked up from a missing file before it counts as outside. */
const MAX_MISSING_LEVELS = 32;

/**
 * The containment rule of SECURITY.md for files shown as project files (working sets, re-read
 * lists): they resolve inside the real path of `projectDir`. Nothing is read until
 * {@linkcode ProjectBoundary.resolvesInside} is first asked; the project's real path is then
 * looked up once.
 *
 * @example
 * ```ts
 * import { projectBoundary } from "./project_boundary.ts";
 *
 * const boundary = projectBoundary("/home/me/app");
 * boundary.inside("src/a.ts"); // true
 * boundary.inside("../.npmrc"); // false
 * boundary.resolvesInside("/home/me/app/linked/x.md"); // false when linked/ points out of the project
 * ```
 */
export function projectBoundary(projectDir: string): ProjectBoundary {
  const dir = normalizePath(projectDir);
  let real: string | null | undefined;
  const realRoot = (): string | null => {
    if (real === undefined) real = realPath(dir) ?? null;
    return real;
  };
  const under = (path: string, root: string) => root !== "" && path.startsWith(root === "/" ? "/" : root + "/");
  const inside = (path: string, base?: string): boolean => {
    const p = resolvePath(path, base || dir);
    if (p.startsWith("../") || p === "..") return false;
    if (under(p, dir)) return true;
    const r = realRoot();
    return r !== null && r !== dir && under(p, r);
  };
  return {
    dir,
    inside,
    resolvesInside(path: string, base?: string): boolean {
      if (!inside(path, base)) return false;
      const root = realRoot();
      if (root === null) return true;
      let p = resolvePath(path, base || dir);
      for (let level = 0; level <= MAX_MISSING_LEVELS; level++) {
        if (p === dir || p === root) return true;
        let found: string | undefined;
        try {
          found = normalizePath(realpathSync(p));
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          if (code !== "ENOENT" && code !== "ENOTDIR") return false;
        }
        if (found !== undefined) return found === root || under(found, root);
        const slash = p.lastIndexOf("/");
        if (slash <= 0) return false;
        p = p.slice(0, slash);
      }
      return false;
    },
  };
}

/**
 * The one containment rule of SECURITY.md for a folder or file rehydrate reads from or writes
 * into: the real path of `path` (absolute, or relative to `projectDir`) when it exists and lies
 * inside the real path of `projectDir` or is it; else `null`. A linked projects root, project
 * folder or file that leads out of the project, a missing path and a project whose real path
 * cannot be told all give `null` (fails closed). Callers then read below the returned real path,
 * so a link swapped in afterwards is checked against a fixed string.
 *
 * @example
 * ```ts
 * import { realPathInside } from "./project_boundary.ts";
 *
 * realPathInside("/home/me/app", "02-projects/01-site"); // "/home/me/app/02-projects/01-site"
 * realPathInside("/home/me/app", "02-projects"); // null when 02-projects links to another workspace
 * ```
 */
export function realPathInside(projectDir: string, path: string, options: { realRoot?: string } = {}): string | null {
  if (projectDir === "" || path.includes("\0")) return null;
  let root: string;
  let real: string;
  try {
    root = options.realRoot ?? realpathSync(projectDir);
    real = realpathSync(resolve(projectDir, path));
  } catch {
    return null;
  }
  if (real === root) return real;
  const rel = relative(root, real);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? real : null;
}

function realPath(dir: string): string | undefined {
  if (dir === "") return undefined;
  try {
    return normalizePath(realpathSync(dir));
  } catch {
    return undefined;
  }
}
