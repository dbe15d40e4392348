import { lstatSync } from "../node/fs.ts";
import { dirname, isAbsolute, join, resolve } from "../node/path.ts";
import { readPrivateFile } from "../state/read_private_file.ts";

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

/**
 * The branch checked out in the git repository holding `cwd`, read from `.git/HEAD` without
 * running git: `{ branch: "main" }`, `{ detached: "<sha>" }` for a detached HEAD, or null when
 * there is no repository or anything looks odd. `.git` is looked for in `cwd` and its parents; a
 * `.git` file (a worktree or submodule: `gitdir: <path>`) is followed to its git directory.
 *
 * Refused, as null: a `.git` or `HEAD` that is a symbolic link, not a regular file or directory, a
 * FIFO or device, larger than 4 KiB or not one line of text; a `gitdir:` that is empty or has
 * control characters; a `ref:` outside `refs/heads/`; a branch name git itself would not accept
 * (`..`, `@{`, control characters, spaces, `~^:?*[\`, a `.lock` or `/` or `.` ending, over 255
 * characters). Never throws.
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

/** The git directory a `.git` file points to, or null. */
function followGitFile(file: string, dir: string): string | null {
  const text = oneLineFile(file);
  if (text === null) return null;
  const m = GITDIR.exec(text);
  if (m === null) return null;
  const target = m[1].trim();
  if (target === "") return null;
  const gitDir = isAbsolute(target) ? target : resolve(dir, target);
  try {
    const st = lstatSync(gitDir);
    if (!st.isDirectory()) return null;
  } catch {
    return null;
  }
  return gitDir;
}

function readHead(gitDir: string): GitBranch | null {
  const text = oneLineFile(join(gitDir, "HEAD"));
  if (text === null) return null;
  if (SHA.test(text)) return { detached: text };
  if (!text.startsWith("ref: refs/heads/")) return null;
  const name = text.slice("ref: refs/heads/".length);
  return isBranchName(name) ? { branch: name } : null;
}

/** The one line of a small regular file (a final newline dropped), or null. */
function oneLineFile(path: string): string | null {
  const r = readPrivateFile(path, { maxBytes: MAX_FILE_BYTES, requireOwner: false });
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
  if (name === "" || name.length > 255 || name === "@") return false;
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (
    name.startsWith("/") || name.startsWith("-") || name.endsWith("/") || name.endsWith(".") || name.endsWith(".lock")
  ) return false;
  for (const part of name.split("/")) if (part.startsWith(".") || part.endsWith(".lock")) return false;
  return true;
}
