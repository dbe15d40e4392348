/**
 * Private helper of `rehydrate doctor`: which of the binaries the settings name it may run. A
 * cloned repository's committed `.claude/settings.json` (or `settings.local.json`) can name any
 * file; Claude Code runs a project's hooks only once the folder is trusted, and doctor, which the
 * README and SECURITY.md send users to for auditing a project's settings, has no such gate. So it
 * runs (`--version`, then the timed hook runs) only the binary that is running, or one the user's
 * own `~/.claude/settings.json` names, outside the project, that nobody else can write (issue #36,
 * N1). Every other entry is named, never run.
 *
 * @module
 */

import { realpathSync, statSync } from "../node/fs.ts";
import { isAbsolute, relative } from "../node/path.ts";

/** Where a settings entry comes from: the project's two files, or the user's. */
export type SettingsScope = "local" | "shared" | "user";

/** Why doctor may run a binary, or why not. */
export type BinaryTrust =
  | { run: true; why: "this binary" | "named by your user settings" }
  | { run: false; why: string };

/** Options of {@linkcode binaryTrust}. */
export interface BinaryTrustOptions {
  /** The scope of the settings file that names it. */
  scope: SettingsScope;
  /** The running executable (`process.execPath`): the one binary doctor knows to be itself. */
  execPath: string;
  /** The project: a binary inside it is the repository's, whichever file names it. */
  projectDir: string;
  /** `process.platform`: Windows has no owner or mode bits to check. */
  platform: string;
  /** The current user's id. Default `process.getuid()`, -1 where there is none. */
  uid?: number;
}

/**
 * Whether `binary` (absolute, existing) may be run by doctor: when it is the running executable
 * (the same device and inode, however it is named), or when the user's own settings name it, it
 * resolves outside the project, and its owner is the user (or root) with no write bit for group or
 * others. Otherwise `run` is false and `why` says which of these it is not.
 *
 * @example
 * ```ts
 * import { binaryTrust } from "./_doctor_trust.ts";
 * binaryTrust("/work/repo/tools/x", { scope: "shared", execPath: process.execPath, projectDir: "/work/repo", platform: "linux" });
 * // { run: false, why: "it is not this rehydrate binary, and only your own ~/.claude/settings.json may name another" }
 * ```
 */
export function binaryTrust(binary: string, options: BinaryTrustOptions): BinaryTrust {
  let st;
  let self;
  try {
    st = statSync(binary);
    self = statSync(options.execPath);
  } catch {
    return { run: false, why: "it cannot be examined" };
  }
  if (st.dev === self.dev && st.ino === self.ino) return { run: true, why: "this binary" };
  if (options.scope !== "user") {
    return {
      run: false,
      why: "it is not this rehydrate binary, and only your own ~/.claude/settings.json may name another",
    };
  }
  try {
    const rel = relative(realpathSync(options.projectDir), realpathSync(binary));
    if (rel === "" || (!rel.startsWith("..") && !isAbsolute(rel))) {
      return { run: false, why: "it lies inside the project, which the repository writes" };
    }
  } catch {
    return { run: false, why: "its real path cannot be told" };
  }
  if (options.platform === "win32") return { run: true, why: "named by your user settings" };
  const uid = options.uid ?? (typeof process.getuid === "function" ? process.getuid() : -1);
  if (uid >= 0 && st.uid !== uid && st.uid !== 0) return { run: false, why: `it is owned by uid ${st.uid}` };
  if ((st.mode & 0o022) !== 0) {
    return { run: false, why: `others can write it (mode 0${(st.mode & 0o777).toString(8)})` };
  }
  return { run: true, why: "named by your user settings" };
}
