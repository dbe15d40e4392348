import { rolloutRows } from "./rollout_rows.ts";
import { rolloutItems } from "./rollout_items.ts";

/** How full a Codex thread's context is, from its rollout. */
export interface CodexFill {
  /** Tokens in the context after the newest response (`last_token_usage.total_tokens`). */
  tokens: number;
  /** The window Codex counts against (`model_context_window`: the model's, less its reserve). */
  window: number;
  /**
   * Where Codex compacts on its own: 90 % of the model's window, which Codex reports as 95 % of
   * it (`window` × 18 / 19), or `model_auto_compact_token_limit` when that is lower.
   */
  compactsAt: number;
}

/**
 * The fill of a Codex thread from the newest `token_count` row of its rollout (one backward pass,
 * stopping there), or null when none is within `budgetBytes`. `windowTokens` (rehydrate's
 * `contextWindow.tokens`) replaces the window Codex reported; `autoCompactLimit` (the user's
 * `model_auto_compact_token_limit`) lowers the compaction point.
 *
 * @example
 * ```ts
 * import { codexFill } from "./rollout_fill.ts";
 * codexFill(rolloutPath); // { tokens: 120000, window: 258400, compactsAt: 244800 }
 * ```
 */
export function codexFill(
  rolloutPath: string,
  options: { budgetBytes?: number; windowTokens?: number; autoCompactLimit?: number } = {},
): CodexFill | null {
  const rows = rolloutRows(rolloutPath, { budgetBytes: options.budgetBytes });
  try {
    for (let row = rows.next(); row !== undefined; row = rows.next()) {
      if (row.type !== "event_msg") continue;
      for (const item of rolloutItems(row)) {
        if (item.kind !== "tokens") continue;
        const window = options.windowTokens ?? item.window;
        if (window === undefined) return null;
        let compactsAt = Math.floor((window * 18) / 19);
        const limit = options.autoCompactLimit;
        if (limit !== undefined && limit > 0 && limit < compactsAt) compactsAt = limit;
        return { tokens: item.tokens, window, compactsAt: Math.max(1, compactsAt) };
      }
    }
  } finally {
    rows.close();
  }
  return null;
}
