import { lstatSync, realpathSync } from "../node/fs.ts";
import { dirname, isAbsolute, join, relative, resolve } from "../node/path.ts";
import { readProjectFile } from "../state/read_project_file.ts";

/** What `HEAD` names: a branch, or a commit (detached). */
export type GitBranch = { branch: string } | { detached: string };

/** Options of {@linkcode gitBranch}. */
export interface GitBranchOptions {
  /** Parent directories searched for `.git` above `cwd`. Default 64. */
  maxDepth?: number;
}

/** Largest `HEAD` or `.git` file read; git writes a few dozen bytes. */
const MAX_FILE_BYTES = 4096;
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const GITDIR = /^gitdir: (.+)$/;
/** The characters a branch name may have here: git allows more, a sentence among them (issue #36, I1). */
const BRANCH = /^[A-Za-z0-9._\/-]{1,100}$/;

/**
 * The branch checked out in the git repository holding `cwd`, read from `.git/HEAD` without
 * running git: `{ branch: "main" }`, `{ detached: "<sha>" }` for a detached HEAD, or null when
 * there is no repository or anything looks odd. `.git` is looked for in `cwd` and its parents; a
 * `.git` file (a worktree or submodule: `gitdir: <path>`) is followed to its git directory.
 *
 * Refused, as null: a `.git` that is a symbolic link, not a regular file or directory; a `.git`
 * file or `HEAD` that resolves outside the folder holding it, has a second hard link, is a FIFO or
 * device, larger than 4 KiB or not one line of text; a `gitdir:` that is empty, has control
 * characters or leads outside the repository's folder unless to its own git directory (a linked
 * worktree's, whose `gitdir` file names this `.git` file back, or a submodule's under an enclosing
 * repository's `.git/modules/`); a `ref:` outside `refs/heads/`; a branch name git itself would
 * not accept (`..`, `@{`, control characters, spaces, `~^:?*[\`, a `.lock` or `/` or `.` ending)
 * or with anything but `A-Z a-z 0-9 . _ / -`, or over 100 characters (issue #36, I1 and I2).
 * Never throws.
 *
 * @example
 * ```ts
 * import { gitBranch } from "./git_branch.ts";
 * const head = gitBranch("/home/me/app/src");
 * if (head !== null && "branch" in head) console.log(head.branch); // "main"
 * ```
 */
export function gitBranch(cwd: string, options: GitBranchOptions = {}): GitBranch | null {
  if (typeof cwd !== "string" || cwd === "" || !isAbsolute(cwd)) return null;
  const maxDepth = options.maxDepth ?? 64;
  let dir = resolve(cwd);
  for (let depth = 0; depth <= maxDepth; depth++) {
    const dotGit = join(dir, ".git");
    let st;
    try {
      st = lstatSync(dotGit);
    } catch {
      st = undefined;
    }
    if (st !== undefined) {
      if (st.isDirectory()) return readHead(dotGit);
      if (st.isFile()) {
        const gitDir = followGitFile(dotGit, dir);
        return gitDir === null ? null : readHead(gitDir);
      }
      return null;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

/**
 * {@linkcode gitBranch}'s answer as one string: the branch name, `detached@<first 12 hex digits>`,
 * or null.
 *
 * @example
 * ```ts
 * import { gitBranchLabel } from "./git_branch.ts";
 * gitBranchLabel({ branch: "main" }); // "main"
 * gitBranchLabel({ detached: "0123456789abcdef0123456789abcdef01234567" }); // "detached@0123456789ab"
 * ```
 */
export function gitBranchLabel(head: GitBranch | null): string | null {
  if (head === null) return null;
  return "branch" in head ? head.branch : `detached@${head.detached.slice(0, 12)}`;
}

/**
 * The git directory a `.git` file points to, or null unless it is inside `dir` or the repository's
 * own: a linked worktree's (its `gitdir` file names this `.git` file back) or a submodule's (under
 * the `.git/modules/` of a repository enclosing `dir`).
 */
function followGitFile(file: string, dir: string): string | null {
  const text = oneLineFile(dir, ".git");
  if (text === null) return null;
  const m = GITDIR.exec(text);
  if (m === null) return null;
  const target = m[1].trim();
  if (target === "") return null;
  const gitDir = isAbsolute(target) ? target : resolve(dir, target);
  try {
    const st = lstatSync(gitDir);
    if (!st.isDirectory()) return null;
    const real = realpathSync(gitDir);
    const realDir = realpathSync(dir);
    if (within(realDir, real)) return gitDir;
    const back = oneLineFile(gitDir, "gitdir");
    if (back !== null && realpathSync(resolve(gitDir, back)) === realpathSync(file)) return gitDir;
    for (let up = dirname(realDir);; up = dirname(up)) {
      if (within(join(up, ".git", "modules"), real) && lstatSync(join(up, ".git")).isDirectory()) return gitDir;
      if (dirname(up) === up) break;
    }
  } catch {
    return null;
  }
  return null;
}

/** `path` lies below `root` (both real paths). */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

function readHead(gitDir: string): GitBranch | null {
  const text = oneLineFile(gitDir, "HEAD");
  if (text === null) return null;
  if (SHA.test(text)) return { detached: text };
  if (!text.startsWith("ref: refs/heads/")) return null;
  const name = text.slice("ref: refs/heads/".length);
  return isBranchName(name) ? { branch: name } : null;
}

/**
 * The one line of a small regular file `name` of `dir` (a final newline dropped), or null: read
 * only inside `dir` and with one link (a hard-linked `HEAD` may be any file of the user's).
 */
function oneLineFile(dir: string, name: string): string | null {
  const r = readProjectFile(dir, name, { maxBytes: MAX_FILE_BYTES });
  if (!r.ok) return null;
  let text = r.text;
  if (text.endsWith("\n")) text = text.slice(0, -1);
  if (text.endsWith("\r")) text = text.slice(0, -1);
  // deno-lint-ignore no-control-regex
  if (text === "" || /[\u0000-\u001f\u007f\ufffd]/.test(text)) return null;
  return text;
}

/** git's own rules for a branch name (`git check-ref-format --branch`), kept strict. */
function isBranchName(name: string): boolean {
  if (!BRANCH.test(name) || name === "@") return false;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (
    name.startsWith("/") || name.startsWith("-") || name.endsWith("/") || name.endsWith(".") || name.endsWith(".lock")
  ) return false;
  for (const part of name.split("/")) if (part.startsWith(".") || part.endsWith(".lock")) return false;
  return true;
}
