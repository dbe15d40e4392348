import type { UserPromptSubmitInput } from "../hook/hook_types.ts";
import { parseHookInput } from "../hook/parse_hook_input.ts";
import { sessionKey } from "../state/session_key.ts";
import { stateDir } from "../state/state_dir.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { contextFill } from "../transcript/context_fill.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { monitorAttrs, monitorLevel, shortMonitorElement } from "../orchestration/monitor_element.ts";
import {
  QUIET_MEMO_SCHEMA,
  QUIET_SWITCH,
  type QuietMemo,
  quietMemoEnv,
  quietMemoPath,
  quietSignature,
} from "./_quiet_memo.ts";
import { VERSION } from "../hook/version.ts";
import { clientContextTokens, fillCrossed, fillToCompaction } from "../session/fill_level.ts";
import { ORCHESTRATION_FILE } from "../orchestration/paths.ts";
import { basename } from "../node/path.ts";

/** Options for {@linkcode quietPrompt}. */
export interface QuietPromptOptions {
  /** Environment. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Home directory (for the state directory). Default from the environment. */
  homeDir?: string;
  /** Clock. Default `new Date()`. */
  now?: Date;
  /**
   * Hears the input once it is parsed and checked, so that the full hook can take it instead of
   * parsing stdin again when this path declines. Default: none.
   */
  onInput?: (input: UserPromptSubmitInput) => void;
}

/** The monitor state's fields that change from prompt to prompt while nothing else does. */
const VOLATILE = new Set(["fill_fraction", "tokens", "updated_at"]);

/**
 * The usual prompt's fast path. Most prompts of a session only measure the context fill, rewrite
 * the context-monitor state and print the short `<context-monitor>` element (or nothing below
 * WARNING). When the full UserPromptSubmit hook finds itself in that case it leaves a memo
 * (lib/events/quiet_prompt_memo.ts) of everything its outcome depended on: the input, the environment,
 * every config, state, checkpoint and run file it read (by inode, size, mtime and ctime) and the
 * state it wrote. Here, when all of that is unchanged and the fill gives the same level, the
 * outcome is the full hook's with the new fill: the state is rewritten with the new fill, tokens
 * and time, and the element printed; in a workspace without an orchestrated run, nothing at all
 * while the everyday fill warning's level (lib/session/fill_warning.ts) is the one on record (the
 * full hook prints and writes nothing then either). Anything else (no memo, a changed file, another level, a
 * state another session wrote, an error) returns `undefined`: run the full hook.
 *
 * Returns the hook's stdout (`""` for none) when it handled the prompt. Never throws.
 *
 * @example
 * ```ts
 * let input: UserPromptSubmitInput | undefined;
 * const out = quietPrompt(stdinText, { onInput: (value) => input = value });
 * if (out === undefined) runTheFullHook(stdinText, input);
 * else if (out !== "") writeFd(1, out);
 * ```
 */
export function quietPrompt(text: string, options: QuietPromptOptions = {}): string | undefined {
  try {
    return quiet(text, options);
  } catch {
    return undefined;
  }
}

function quiet(text: string, options: QuietPromptOptions): string | undefined {
  const env = options.env ?? process.env;
  if (env[QUIET_SWITCH] === "0") return undefined;
  const parsed = parseHookInput(text, { event: "UserPromptSubmit" });
  if (parsed.error) return undefined;
  const input = parsed.value;
  options.onInput?.(input);
  const key = sessionKey(input.session_id);
  if (key === null) return undefined;
  const read = readPrivateFile(quietMemoPath(stateDir({ env, homeDir: options.homeDir }), key), {
    maxBytes: 256 * 1024,
  });
  if (!read.ok) return undefined;
  const memo = JSON.parse(read.text) as QuietMemo;
  const projectDir = env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd();
  if (
    memo?.schema_version !== QUIET_MEMO_SCHEMA || memo.version !== VERSION || memo.session_id !== input.session_id ||
    memo.transcript_path !== input.transcript_path || memo.project_dir !== projectDir ||
    JSON.stringify(memo.env) !== JSON.stringify(quietMemoEnv(env)) || !Array.isArray(memo.deps) ||
    memo.monitor === undefined
  ) {
    return undefined;
  }
  let run = false;
  for (const dep of memo.deps) {
    if (!Array.isArray(dep) || quietSignature(dep[0], dep[1]) !== dep[2]) return undefined;
    if (dep[2] !== "-" && typeof dep[0] === "string" && basename(dep[0]) === ORCHESTRATION_FILE) run = true;
  }

  const m = memo.monitor;
  // A memo without a monitor is only written where no run file exists: one that names a run file
  // present is not what the full hook wrote.
  if (m === null && run) return undefined;
  if (m === null) {
    // No orchestrated run: the full hook prints and writes nothing unless the everyday fill
    // warning's level changed (a crossing speaks, a drop is recorded).
    const f = memo.fill_warning;
    if (f === null) return "";
    // The full hook writes the level only for thresholds it has: anything else is not its memo.
    if (typeof f !== "object" || !Array.isArray(f.thresholds) || f.thresholds.length === 0) return undefined;
    const fill = contextFill(input.transcript_path, {
      model: f.fill.model ?? undefined,
      windowTokens: f.fill.window_tokens ?? undefined,
      maxWindowTokens: f.fill.max_window_tokens ?? undefined,
      contextTokens: clientContextTokens(input),
      budgetBytes: f.fill.budget_bytes,
      stopAtUsage: true,
    });
    if (fill.source === "none") return "";
    if (fillCrossed(fillToCompaction(fill.tokens, fill.window, env).fraction, f.thresholds) === f.crossed) return "";
    return undefined;
  }
  const fill = contextFill(input.transcript_path, {
    model: m.fill.model ?? undefined,
    windowTokens: m.fill.window_tokens ?? undefined,
    budgetBytes: m.fill.budget_bytes,
    stopAtUsage: true,
  });
  const fraction = fill.source === "none" ? null : fill.fraction;
  const level = monitorLevel(fraction, m.thresholds);
  const state = m.state;
  if (level !== state.level || fill.window !== state.window || (fill.model ?? null) !== state.model) return undefined;
  let out = "";
  if (level !== "NOMINAL") {
    const element = shortMonitorElement(
      monitorAttrs(level, fraction, fill.tokens, fill.window, String(state.resumption_status)),
    );
    if (element.length > m.max_chars) return undefined;
    out = JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: element } });
  }

  // The state the full hook would have read: as it (or this path) left it, but for the fill.
  const prior = readPrivateFile(m.state_path, { maxBytes: 64 * 1024 });
  if (!prior.ok || typeof state !== "object" || state === null) return undefined;
  const was = JSON.parse(prior.text) as Record<string, unknown>;
  const keys = Object.keys(state);
  if (was === null || typeof was !== "object" || Object.keys(was).length !== keys.length) return undefined;
  for (const k of keys) {
    if (!VOLATILE.has(k) && JSON.stringify(was[k]) !== JSON.stringify(state[k])) return undefined;
  }
  const next = { ...state };
  next.fill_fraction = fraction === null ? null : Math.round(fraction * 10000) / 10000;
  next.tokens = fill.source === "none" ? null : fill.tokens;
  next.updated_at = (options.now ?? new Date()).toISOString();
  writeFileAtomic(m.state_path, JSON.stringify(next, null, 2) + "\n", { sync: false });
  return out;
}
