// The everyday fill warning's level, shared by the full UserPromptSubmit hook
// (lib/session/fill_warning.ts) and the usual prompt's fast path (lib/events/quiet_prompt.ts), which
// must agree on it to the last digit. Kept free of heavy imports: the fast path loads it.
import { join } from "../node/path.ts";
import { autoCompactAt } from "../transcript/context_window.ts";

/**
 * The highest of `thresholds` (fill fractions, in any order) that `fraction` reached: the level
 * the warning is at. 0 when it reached none, and when the fill is unknown (`null`).
 *
 * @example
 * ```ts
 * import { fillCrossed } from "./fill_level.ts";
 *
 * fillCrossed(0.7, [0.55, 0.65, 0.75]); // 0.65
 * fillCrossed(0.3, [0.55, 0.65, 0.75]); // 0
 * ```
 */
export function fillCrossed(fraction: number | null, thresholds: readonly number[]): number {
  let crossed = 0;
  if (fraction === null) return crossed;
  for (const t of thresholds) if (fraction >= t && t > crossed) crossed = t;
  return crossed;
}

/**
 * The `context_tokens` of a hook input, when the client sent a plausible one (Claude Code 2.1.332
 * sends it on SessionStart resume and fork and on model switches: the last response's input,
 * cache and output tokens). `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { clientContextTokens } from "./fill_level.ts";
 *
 * clientContextTokens({ context_tokens: 250_000 }); // 250000
 * clientContextTokens({ context_tokens: "lots" }); // undefined
 * ```
 */
export function clientContextTokens(input: object): number | undefined {
  const value = (input as { context_tokens?: unknown }).context_tokens;
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/**
 * Where the fill warning keeps the level it last reached for a session:
 * `<stateDir>/fill/<session key>.json`.
 *
 * @example
 * ```ts
 * import { fillWarningPath } from "./fill_level.ts";
 *
 * fillWarningPath("/home/a/.local/state/rehydrate", "sess-1"); // ".../fill/sess-1.json"
 * ```
 */
export function fillWarningPath(stateDir: string, sessionKey: string): string {
  return join(stateDir, "fill", `${sessionKey}.json`);
}

/**
 * How far the context is on its way to Claude Code's own compaction: `tokens` over the token count
 * at which the client compacts for `window` ({@linkcode autoCompactAt}, with
 * `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` from `env`), and that count. The warning's thresholds are
 * fractions of it, not of the raw window: at 55 % of a 1M window, Claude Code is still 400,000
 * tokens from compacting.
 *
 * @example
 * ```ts
 * import { fillToCompaction } from "./fill_level.ts";
 * fillToCompaction(110_000, 200_000, {}); // { fraction: 0.6586…, at: 167_000 }
 * ```
 */
export function fillToCompaction(
  tokens: number,
  window: number,
  env: Record<string, string | undefined>,
): { fraction: number; at: number } {
  const at = autoCompactAt(window, env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE);
  return { fraction: tokens / at, at };
}
