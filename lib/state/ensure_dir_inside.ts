import { lstatSync, mkdirSync, realpathSync } from "../node/fs.ts";
import { dirname, isAbsolute, join, relative, resolve } from "../node/path.ts";

/** Options for {@linkcode ensureDirInside}. */
export interface EnsureDirInsideOptions {
  /** Mode of the directories created. Default `0o700`. */
  mode?: number;
}

/**
 * Makes sure directory `dir` exists inside `root` without creating anything outside it: the
 * deepest part of `dir` that exists is resolved first (symbolic links followed), and only when it
 * lies inside `root` are the missing directories below it created. Returns the real path of `dir`
 * (which may be `root` itself). Throws an `Error` saying why when `dir` leaves `root` (`..`, an
 * absolute path) or resolves outside it through a link; nothing has been created then.
 *
 * @example
 * ```ts
 * const real = ensureDirInside("/work/repo", "/work/repo/00-system/.cache");
 * ```
 */
export function ensureDirInside(root: string, dir: string, options: EnsureDirInsideOptions = {}): string {
  const realRoot = realpathSync(root);
  const target = resolve(root, dir);
  if (!within(resolve(root), target)) throw new Error(`${dir} is outside the project`);
  // The nearest existing ancestor decides where the rest would be created.
  let existing = target;
  const missing: string[] = [];
  while (lstatSync(existing, { throwIfNoEntry: false }) === undefined) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(existing.slice(parent.length).replace(/^[\\/]+/, ""));
    existing = parent;
  }
  const real = realpathSync(existing);
  if (!within(realRoot, real)) throw new Error(`${relative(root, existing) || "."} resolves outside the project`);
  let at = real;
  for (const name of missing) {
    at = join(at, name);
    mkdirSync(at, { mode: options.mode ?? 0o700 });
  }
  // Created under a checked real directory, but a link swapped in meanwhile would show here.
  const final = realpathSync(at);
  if (!within(realRoot, final)) throw new Error(`${relative(root, target)} resolves outside the project`);
  return final;
}

/** `path` is `root` or below it. */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
