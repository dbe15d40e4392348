/** The default context window of Claude models: 200,000 tokens. */
export const DEFAULT_CONTEXT_WINDOW: number = 200_000;
/** The extended context window: 1,000,000 tokens. */
export const EXTENDED_CONTEXT_WINDOW: number = 1_000_000;

// `[1m]` is Claude Code's own suffix; "(1M context)" is how a model's display name says it.
const ONE_MILLION_MARKER = /\[1m\]|\b1m context\b/i;
/**
 * Models whose own window is 1,000,000 tokens (Claude Code 2.1.332's model catalog: `native_1m`):
 * Opus 4.7 and later, Sonnet 5 and later, Haiku 5.5 and later, Fable. The older ones (Opus 4.6,
 * Sonnet 4.6, …) have 200,000 unless `[1m]` asks for more. The `claude-` prefix is optional (an
 * alias the client resolves, `anthropic.claude-…` on Bedrock).
 */
const NATIVE_ONE_MILLION =
  /\b(?:claude-)?(?:opus-(?:4-(?:[7-9]|\d\d)|[5-9])|sonnet-[5-9]|haiku-(?:5-[5-9]|[6-9])|fable-)/i;
/** Claude Code's least auto-compact window: a smaller CLAUDE_CODE_AUTO_COMPACT_WINDOW is raised to it. */
const MIN_AUTO_COMPACT_WINDOW = 100_000;

/**
 * The context window size in tokens for a model setting. 1,000,000 for a model whose own window
 * is that large (`claude-opus-5-5`, `claude-sonnet-5`, `claude-opus-4-8`, …), when the model
 * string has the `[1m]` suffix (any case, as in `claude-opus-4-6[1m]`) or the "1M context" of a
 * display name (`Opus 4.6 (1M context)`), or when more than 200,000 tokens were
 * observed in the context (proof of the larger window), else 200,000. The transcript's
 * `message.model` never carries `[1m]`; pass the model from the hook input when you have it.
 *
 * @example
 * ```ts
 * import { contextWindow } from "./context_window.ts";
 *
 * contextWindow("claude-opus-4-6[1m]"); // 1_000_000
 * contextWindow("claude-opus-5-5"); // 1_000_000
 * contextWindow("claude-opus-4-6"); // 200_000
 * contextWindow("claude-opus-4-6", 250_000); // 1_000_000
 * ```
 */
export function contextWindow(model?: string, observedTokens?: number): number {
  if (typeof model === "string" && (ONE_MILLION_MARKER.test(model) || NATIVE_ONE_MILLION.test(model))) {
    return EXTENDED_CONTEXT_WINDOW;
  }
  if (typeof observedTokens === "number" && observedTokens > DEFAULT_CONTEXT_WINDOW) return EXTENDED_CONTEXT_WINDOW;
  return DEFAULT_CONTEXT_WINDOW;
}

/**
 * The auto-compact window `CLAUDE_CODE_AUTO_COMPACT_WINDOW` sets, in tokens, read as Claude Code
 * reads it: a whole number (`200000`, `2e5`, `200_000`) or one with a `k` or `m` suffix (`200k`,
 * `1m`); a value below 100,000 counts as 100,000; anything else (empty, not a number, below 1)
 * as unset (`undefined`). Claude Code compacts against the smaller of it and the model's window,
 * so a fill warning must measure against that too.
 *
 * @example
 * ```ts
 * import { autoCompactWindow } from "./context_window.ts";
 *
 * autoCompactWindow("200k"); // 200_000
 * autoCompactWindow("5000"); // 100_000
 * autoCompactWindow("soon"); // undefined
 * ```
 */
export function autoCompactWindow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const unit = text.slice(-1).toLowerCase();
  const scale = unit === "m" ? 1_000_000 : unit === "k" ? 1000 : 1;
  const digits = (scale === 1 ? text : text.slice(0, -1)).trim().replaceAll("_", "");
  if (!/^(\d+(\.\d*)?|\.\d+)(e\+?\d+)?$/i.test(digits)) return undefined;
  const tokens = Math.round(Number(digits) * scale);
  if (!Number.isSafeInteger(tokens) || tokens < 1) return undefined;
  return Math.max(tokens, MIN_AUTO_COMPACT_WINDOW);
}

/**
 * What Claude Code keeps free below the window before it compacts: the model's output reserve (at
 * most 20,000 tokens, which every current model's output limit reaches) and a 13,000-token
 * buffer (2.1.197 and 2.1.332: `window - min(maxOutputTokens, 20000) - 13000`).
 */
export const AUTO_COMPACT_OUTPUT_RESERVE = 20_000;
/** See {@linkcode AUTO_COMPACT_OUTPUT_RESERVE}. */
export const AUTO_COMPACT_BUFFER = 13_000;

/**
 * The number of context tokens at which Claude Code compacts on its own, for a window of `window`
 * tokens (already the smaller of the model's and CLAUDE_CODE_AUTO_COMPACT_WINDOW's): `window -
 * 20,000 - 13,000`, or, with `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (1 to 100), that percentage of
 * `window - 20,000` when it is lower (the override only lowers it). Never below 1.
 *
 * @example
 * ```ts
 * import { autoCompactAt } from "./context_window.ts";
 *
 * autoCompactAt(200_000); // 167_000
 * autoCompactAt(1_000_000); // 967_000
 * autoCompactAt(200_000, "50"); // 90_000
 * ```
 */
export function autoCompactAt(window: number, pctOverride?: string): number {
  const effective = window - AUTO_COMPACT_OUTPUT_RESERVE;
  let at = effective - AUTO_COMPACT_BUFFER;
  const pct = pctOverride === undefined || pctOverride.trim() === "" ? NaN : Number(pctOverride);
  if (Number.isFinite(pct) && pct > 0 && pct <= 100) at = Math.min(Math.floor(effective * (pct / 100)), at);
  return Math.max(1, at);
}
