import type { HookEnv, HookEventName, HookInput, HookReply } from "./hook_types.ts";
import type { RehydrateConfig } from "../config/load_config.ts";
import { loadConfig } from "../config/load_config.ts";
import { parseHookInput } from "./parse_hook_input.ts";
import { sessionKey } from "../state/session_key.ts";
import { stateDir } from "../state/state_dir.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { debugLog } from "./debug_log.ts";
import { escapeInvisible, hasInvisible } from "../redact/escape_invisible.ts";
import { isCodexInput } from "../codex/is_codex_input.ts";

/** The client that ran the hook: Claude Code, or the OpenAI Codex CLI. */
export type HookHost = "claude" | "codex";

/**
 * What a hook handler gets: the checked input of the event `E` and lazy access to everything
 * else. Code that serves several events takes the context of those events (the default: any),
 * and sees the fields they share.
 */
export interface HookContext<E extends HookEventName = HookEventName> {
  /** The parsed, checked hook input. */
  input: HookInput<E>;
  /**
   * The input's `session_id` as a file-name key (`sessionKey()`), computed once per run; null
   * when the id is not a plain id (then nothing is read or written under the session's name).
   */
  sessionKey: string | null;
  /** The environment (a copy in tests). */
  env: HookEnv;
  /** `CLAUDE_PROJECT_DIR`, else the input's `cwd`. */
  projectDir: string;
  /**
   * The client that ran the hook: `codex` when the hook was registered with `--agent codex` or
   * its input is Codex's (`isCodexInput`), else `claude`.
   */
  host: HookHost;
  /** The time the hook started. */
  now: Date;
  /** The merged config, loaded on first use. */
  config(): RehydrateConfig;
  /** The private state directory, created and checked on first use. Throws when unsafe. */
  stateDir(): string;
  /** Appends to the debug log when debugging is on. */
  log(message: string): void;
}

/** A hook's logic for the event `E`: everything but the process I/O. Synchronous, like the I/O. */
export type HookHandler<E extends HookEventName = HookEventName> = (ctx: HookContext<E>) => HookReply;

/** Options for {@linkcode handleHook}. */
export interface HandleHookOptions<E extends HookEventName = HookEventName> {
  /**
   * The input already parsed from the same text with `parseHookInput(text, { event })` (the
   * usual prompt's fast path parses it before it declines), so it is not parsed twice. Default:
   * parsed here.
   */
  input?: HookInput<E>;
  /** Environment. Default `process.env`. */
  env?: HookEnv;
  /** Home directory for the user config. Default from the environment. */
  homeDir?: string;
  /** Clock. Default `new Date()`. */
  now?: Date;
  /** The client, when the hook's registration says it (`--agent codex`). Default: told from the input. */
  host?: HookHost;
}

/** The process outcome {@linkcode handleHook} decided on. */
export interface HookOutcome {
  stdout: string;
  exitCode: 0 | 2;
}

const SILENT: HookOutcome = { stdout: "", exitCode: 0 };

/**
 * Runs a hook handler on raw stdin text and decides what the process prints
 * and how it exits, failing open: input that does not parse, an input for
 * another event, a handler that throws or returns something malformed all
 * give exit 0 with no output and a line in the debug log. Exit 2 happens only
 * when the handler asks for it. A JSON reply whose `hookSpecificOutput`
 * names another event is dropped rather than sent, because Claude Code
 * rejects it with an error the user would see. With `"enabled": false` in the config the handler
 * does not run: exit 0, no output, nothing written.
 *
 * @example
 * ```ts
 * const out = handleHook("Stop", () => null, '{"session_id":"s","transcript_path":"","cwd":"/p","hook_event_name":"Stop"}');
 * out.exitCode; // 0
 * ```
 */
export function handleHook<E extends HookEventName>(
  event: E,
  handler: HookHandler<E>,
  text: string,
  options: HandleHookOptions<E> = {},
): HookOutcome {
  const env = options.env ?? (process.env as HookEnv);
  const now = options.now ?? new Date();
  let config: RehydrateConfig | undefined;
  let dir: string | undefined;
  let projectDir = env.CLAUDE_PROJECT_DIR || process.cwd();
  const getConfig = (): RehydrateConfig => {
    if (!config) config = loadConfig(projectDir, { homeDir: options.homeDir, env }).config;
    return config;
  };
  const getStateDir = (): string => {
    if (dir === undefined) {
      const d = stateDir({ env, homeDir: options.homeDir, configured: safeConfig(getConfig)?.stateDir ?? null });
      ensurePrivateDir(d);
      dir = d;
    }
    return dir;
  };
  const debugOn = (): boolean => {
    const flag = env.REHYDRATE_DEBUG;
    if (flag === "1" || flag === "true") return true;
    if (flag === "0" || flag === "false") return false;
    return safeConfig(getConfig)?.debug === true;
  };
  const log = (message: string): void => {
    try {
      if (debugOn()) debugLog(getStateDir(), `${event}: ${message}`, { now });
    } catch { /* no state directory: nowhere to log */ }
  };

  let input = options.input;
  if (input === undefined) {
    const parsed = parseHookInput(text, { event });
    if (parsed.error) {
      log(`input refused (${parsed.error.code}): ${parsed.error.message}`);
      return SILENT;
    }
    input = parsed.value;
  }
  projectDir = env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd();
  // The off switch (`"enabled": false`): before the state directory is created or anything is
  // read or written, and without a line in the debug log, which is a write too.
  if (safeConfig(getConfig)?.enabled === false) return SILENT;
  const ctx: HookContext<E> = {
    input,
    sessionKey: sessionKey(input.session_id),
    env,
    projectDir,
    host: options.host ?? (isCodexInput(input) ? "codex" : "claude"),
    now,
    config: getConfig,
    stateDir: getStateDir,
    log,
  };
  let reply: HookReply;
  try {
    reply = handler(ctx);
  } catch (err) {
    log(`failed open: ${(err as Error)?.stack ?? String(err)}`);
    return SILENT;
  }
  return toOutcome(event, reply, log);
}

function toOutcome(event: HookEventName, reply: HookReply, log: (m: string) => void): HookOutcome {
  if (reply === null || reply === undefined) return SILENT;
  const exitCode = reply.exitCode === 2 ? 2 : 0;
  // A backstop for text some workflow built without the escapers: no invisible or bidirectional
  // control character reaches the model raw, whatever the handler quoted (lib/redact/escape_invisible.ts).
  if ("stdout" in reply && typeof reply.stdout === "string") return { stdout: escapeInvisible(reply.stdout), exitCode };
  if ("json" in reply && reply.json && typeof reply.json === "object") {
    const specific = (reply.json as { hookSpecificOutput?: { hookEventName?: unknown } }).hookSpecificOutput;
    if (specific && specific.hookEventName !== event) {
      log(`reply dropped: hookSpecificOutput.hookEventName ${String(specific.hookEventName)} is not ${event}`);
      return SILENT;
    }
    return { stdout: visibleJson(reply.json), exitCode };
  }
  log("reply dropped: neither stdout nor json");
  return SILENT;
}

/** `json` as JSON text, each string value with its invisible characters escaped; one pass when it has none. */
function visibleJson(json: object): string {
  const text = JSON.stringify(json);
  if (!hasInvisible(text)) return text;
  return JSON.stringify(json, (_key, value) => typeof value === "string" ? escapeInvisible(value) : value);
}

function safeConfig(get: () => RehydrateConfig): RehydrateConfig | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}
