/**
 * Estimates the number of model tokens in a text as `ceil(length / 4)`.
 *
 * Length is counted in UTF-16 code units (`text.length`), the same unit Claude Code uses for its
 * 10,000-character hook-output limit, so budgets in characters and estimates in tokens agree.
 * The estimate is deliberately cheap: it runs on every prompt, and the real tokenizer is not
 * available offline.
 *
 * @example
 * ```ts
 * import { countTokens } from "./count_tokens.ts";
 * countTokens(""); // 0
 * countTokens("hello"); // 2
 * ```
 */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
