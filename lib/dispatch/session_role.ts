import { homeDir } from "../node/home_dir.ts";
import { isAbsolute, join, resolve } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { isRegularFile, readUserFile, rolePath, sessionsDir, unsafeDirReason } from "../state/files.ts";

/** What kind of session a hook runs in (docs/dispatch.md). */
export type SessionRole =
  /** Registered by PostToolUse when it used the handler skill. */
  | { role: "handler" }
  /** Started with a dispatch file: its absolute path. */
  | { role: "worker"; dispatchFile: string }
  /** Anything else: the handler/worker workflow does nothing. */
  | { role: "regular" };

const REGULAR: SessionRole = { role: "regular" };

/**
 * Tells handler, worker and regular sessions apart. A **handler** is a
 * session with a registration in `<stateDir>/sessions/<key>.role.json`
 * (written by `rereadPostToolUse` when the session used the skill named by
 * `dispatch.handlerSkill`); the registration must be a regular file owned by
 * the current user in a directory only that user can write, else it is
 * ignored and logged. A **worker** names an existing dispatch file, through
 * the environment variable named by `dispatch.env` (default
 * `REHYDRATE_DISPATCH_FILE`) or else the first line of
 * `dispatch.dispatchPathFile` (default `~/.claude/worker-dispatch-path`, the
 * file the workflow's launcher writes under the worker's `$HOME`); `~/` is
 * expanded with `$HOME`, a relative path is taken from the project directory.
 * A named dispatch file that does not exist does not make a worker: a stale
 * path file left in a real home must not turn every session into one.
 * `dispatch.enabled: false` makes every session regular. Never throws for a
 * missing or unreadable file; `ctx.stateDir()` may throw when the state
 * directory itself is unsafe.
 *
 * @example
 * ```ts
 * const role = sessionRole(ctx);
 * if (role.role === "worker") console.log(role.dispatchFile);
 * ```
 */
export function sessionRole(ctx: HookContext): SessionRole {
  const config = ctx.config().dispatch;
  if (config.enabled === false) return REGULAR;
  const key = ctx.sessionKey;
  if (key !== null && isRegisteredHandler(ctx, key)) return { role: "handler" };
  const dispatchFile = namedDispatchFile(ctx);
  if (dispatchFile !== null) return { role: "worker", dispatchFile };
  return REGULAR;
}

function isRegisteredHandler(ctx: HookContext, key: string): boolean {
  const path = rolePath(ctx.stateDir(), key);
  const r = readPrivateFile(path, { maxBytes: 16 * 1024 });
  if (!r.ok) {
    if (r.reason !== "missing") ctx.log(`handler registration refused: ${r.message}`);
    return false;
  }
  const dirProblem = unsafeDirReason(sessionsDir(ctx.stateDir()));
  if (dirProblem !== null) {
    ctx.log(`handler registration refused: ${dirProblem}`);
    return false;
  }
  try {
    const value = JSON.parse(r.text);
    return value !== null && typeof value === "object" && value.session_id === ctx.input.session_id &&
      value.role === "handler";
  } catch {
    ctx.log(`handler registration refused: ${path} is not JSON`);
    return false;
  }
}

function namedDispatchFile(ctx: HookContext): string | null {
  const config = ctx.config().dispatch;
  const home = homeDir(ctx.env);
  let named = ctx.env[config.env]?.trim() ?? "";
  if (named === "") {
    const text = readUserFile(config.dispatchPathFile, 4096);
    if (text === null) return null;
    const nl = text.indexOf("\n");
    named = (nl === -1 ? text : text.slice(0, nl)).trim();
    if (named === "") return null;
  }
  if (named === "~") return null;
  const path = named.startsWith("~/")
    ? join(home, named.slice(2))
    : isAbsolute(named)
    ? named
    : resolve(ctx.projectDir, named);
  if (!isRegularFile(path)) {
    ctx.log(`dispatch file ${path} does not exist: not a worker session`);
    return null;
  }
  return path;
}
