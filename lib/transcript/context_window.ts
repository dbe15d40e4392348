/** The default context window of Claude models: 200,000 tokens. */
export const DEFAULT_CONTEXT_WINDOW: number = 200_000;
/** The extended context window: 1,000,000 tokens. */
export const EXTENDED_CONTEXT_WINDOW: number = 1_000_000;

const ONE_MILLION_SUFFIX = /\[1m\]/i;

/**
 * The context window size in tokens for a model setting. 1,000,000 when the model string has
 * the `[1m]` suffix (any case, as in `claude-opus-4-6[1m]`) or when more than 200,000 tokens were
 * observed in the context (proof of the larger window), else 200,000. The transcript's
 * `message.model` never carries `[1m]`; pass the model from the hook input when you have it.
 *
 * @example
 * ```ts
 * import { contextWindow } from "./context_window.ts";
 *
 * contextWindow("claude-opus-4-6[1m]"); // 1_000_000
 * contextWindow("claude-opus-4-6"); // 200_000
 * contextWindow("claude-opus-4-6", 250_000); // 1_000_000
 * ```
 */
export function contextWindow(model?: string, observedTokens?: number): number {
  if (typeof model === "string" && ONE_MILLION_SUFFIX.test(model)) return EXTENDED_CONTEXT_WINDOW;
  if (typeof observedTokens === "number" && observedTokens > DEFAULT_CONTEXT_WINDOW) return EXTENDED_CONTEXT_WINDOW;
  return DEFAULT_CONTEXT_WINDOW;
}
