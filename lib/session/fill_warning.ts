import { join } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { contextFill } from "../transcript/context_fill.ts";
import { autoCompactWindow } from "../transcript/context_window.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { readSessionRecord } from "../state/session_record.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { clientContextTokens, fillCrossed, fillToCompaction, fillWarningPath } from "./fill_level.ts";
import { codexFill } from "../codex/rollout_fill.ts";
import { codexHome } from "../codex/codex_home.ts";
import { autoCompactLimit } from "../codex/auto_compact_limit.ts";

/** The content of `<stateDir>/fill/<session key>.json`. */
export interface FillWarningState {
  schema_version: 1;
  session_id: string;
  /** The highest threshold the fill had reached at the last prompt that measured it; 0 for none. */
  crossed: number;
  /** The fill then, in whole percent of the token count at which Claude Code compacts. */
  percent: number;
  updated_at: string;
}

/**
 * What a prompt's fill warning depended on besides the transcript, for the usual prompt's fast
 * path (lib/events/quiet_prompt_memo.ts): the thresholds, the level now on record, how the fill was
 * measured and where the level is kept.
 */
export interface FillWarningFacts {
  thresholds: number[];
  crossed: number;
  fill: { model: string | null; windowTokens: number | null; maxWindowTokens: number | null; budgetBytes: number };
  statePath: string;
}

/** The one fixed sentence of the `<context-fill>` element. */
export const FILL_WARNING_TEXT =
  "The context is filling up: Claude Code compacts this conversation automatically when it holds compacts-at tokens (percent says how close it is).";
/** The same sentence under the Codex CLI. */
export const CODEX_FILL_WARNING_TEXT =
  "The context is filling up: Codex compacts this conversation automatically when it holds compacts-at tokens (percent says how close it is).";

/**
 * The everyday fill warning, on UserPromptSubmit in every repository without an orchestration run
 * (whose context monitor speaks instead): one short `<context-fill>` line when the fill first
 * reaches one of `session.fillWarnings`, then nothing until it reaches the next. The level reached
 * is kept per session in `<stateDir>/fill/<session key>.json` (atomic, owner-only): when the fill
 * falls back below it (a compaction), the lower level is recorded without a word, so each threshold
 * speaks again on the next crossing. An unknown fill (no usage within the scan budget) changes
 * nothing. The window: `contextWindow.tokens` when the user set it, else 1,000,000 when the
 * session's model (SessionStart's, in the session record), the transcript's model id or more than
 * 200,000 tokens (seen, or the input's `context_tokens`) say so, else 200,000; at most
 * CLAUDE_CODE_AUTO_COMPACT_WINDOW. The thresholds are fractions of the point where Claude Code
 * compacts in that window ({@linkcode fillToCompaction}: 33,000 tokens below it, or lower with
 * CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), not of the window itself. Returns the element or null;
 * `options.onQuiet` hears what the next prompt's fast path needs (not called when the warning is
 * off or the session id is not a plain id). Throws on I/O errors (the caller guards it).
 *
 * @example
 * ```ts
 * import { fillWarning } from "./fill_warning.ts";
 *
 * const text = fillWarning(ctx, { onQuiet: (facts) => fill = facts });
 * // '<context-fill percent="66" tokens="132000" window="200000">The context window is filling up: …</context-fill>'
 * ```
 */
export function fillWarning(
  ctx: HookContext<"UserPromptSubmit">,
  options: { onQuiet?: (facts: FillWarningFacts) => void } = {},
): string | null {
  const config = ctx.config();
  const thresholds = config.session.enabled === false ? [] : config.session.fillWarnings;
  const key = ctx.sessionKey;
  if (thresholds.length === 0 || key === null) return null;
  const dir = ctx.stateDir();
  const measure = {
    model: sessionModel(dir, key),
    windowTokens: config.contextWindow.tokens ?? null,
    maxWindowTokens: autoCompactWindow(ctx.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW) ?? null,
    budgetBytes: config.transcript.scanBudgetBytes,
  };
  const fill = ctx.host === "codex" ? codexMeasure(ctx, measure) : contextFill(ctx.input.transcript_path, {
    model: measure.model ?? undefined,
    windowTokens: measure.windowTokens ?? undefined,
    maxWindowTokens: measure.maxWindowTokens ?? undefined,
    contextTokens: clientContextTokens(ctx.input),
    budgetBytes: measure.budgetBytes,
    stopAtUsage: true,
  });
  const path = fillWarningPath(dir, key);
  const prior = priorCrossed(path, ctx.input.session_id);
  let crossed = prior;
  let text: string | null = null;
  if (fill.source !== "none") {
    const toward = "compactsAt" in fill
      ? { fraction: fill.tokens / fill.compactsAt, at: fill.compactsAt }
      : fillToCompaction(fill.tokens, fill.window, ctx.env);
    crossed = fillCrossed(toward.fraction, thresholds);
    // From the integers: 114000 / 200000 * 100 is 56.99999999999999 in floating point.
    const percent = Math.floor((fill.tokens * 100) / toward.at);
    if (crossed !== prior) {
      ensurePrivateDir(join(dir, "fill"));
      const state: FillWarningState = {
        schema_version: 1,
        session_id: ctx.input.session_id,
        crossed,
        percent,
        updated_at: ctx.now.toISOString(),
      };
      writeFileAtomic(path, JSON.stringify(state, null, 2) + "\n");
      ctx.log(`fill warning: ${percent}% of ${toward.at} (window ${fill.window}), level ${prior} -> ${crossed}`);
    }
    if (crossed > prior) {
      text = fillWarningElement(percent, fill.tokens, fill.window, toward.at, { host: ctx.host });
    }
  }
  options.onQuiet?.({ thresholds: [...thresholds], crossed, fill: measure, statePath: path });
  return text;
}

/**
 * The `<context-fill>` element: the fill in whole percent of the point where Claude Code compacts,
 * the tokens, the window and that point as attributes (numbers only, nothing to escape), then our
 * one fixed sentence.
 *
 * @example
 * ```ts
 * import { fillWarningElement } from "./fill_warning.ts";
 *
 * fillWarningElement(66, 110_220, 200_000, 167_000);
 * // '<context-fill percent="66" tokens="110220" window="200000" compacts-at="167000">The context is filling up: …</context-fill>'
 * ```
 */
export function fillWarningElement(
  percent: number,
  tokens: number,
  window: number,
  compactsAt: number,
  options: { host?: "claude" | "codex" } = {},
): string {
  const sentence = options.host === "codex" ? CODEX_FILL_WARNING_TEXT : FILL_WARNING_TEXT;
  return `<context-fill percent="${percent}" tokens="${tokens}" window="${window}" compacts-at="${compactsAt}">${sentence}</context-fill>`;
}

/**
 * The fill of a Codex thread: the rollout's newest token count in the window Codex reports (or
 * `contextWindow.tokens`), toward where Codex compacts (lowered by the user's
 * `model_auto_compact_token_limit` in `$CODEX_HOME/config.toml`).
 */
function codexMeasure(
  ctx: HookContext<"UserPromptSubmit">,
  measure: { windowTokens: number | null; budgetBytes: number },
): { source: "none" } | { source: "codex"; tokens: number; window: number; compactsAt: number } {
  const fill = codexFill(ctx.input.transcript_path, {
    budgetBytes: measure.budgetBytes,
    windowTokens: measure.windowTokens ?? undefined,
    autoCompactLimit: autoCompactLimit(join(codexHome(ctx.env), "config.toml")),
  });
  return fill === null ? { source: "none" } : { source: "codex", ...fill };
}

/** The level on record for this session; 0 when there is none (or it is another session's, or corrupt). */
function priorCrossed(path: string, sessionId: string): number {
  const read = readPrivateFile(path, { maxBytes: 4096 });
  if (!read.ok) return 0;
  try {
    const state = JSON.parse(read.text) as Partial<FillWarningState> | null;
    const crossed = state?.crossed;
    return state?.session_id === sessionId && typeof crossed === "number" && crossed >= 0 && crossed <= 1 ? crossed : 0;
  } catch {
    return 0;
  }
}

/** The main-loop model SessionStart recorded for the session (it may carry `[1m]`), or null. */
function sessionModel(dir: string, key: string): string | null {
  const model = readSessionRecord(dir, key)?.model;
  return typeof model === "string" && model !== "" ? model : null;
}
