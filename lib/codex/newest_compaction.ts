import { rolloutRows } from "./rollout_rows.ts";
import { rolloutItems } from "./rollout_items.ts";

/** A compaction as the rollout records it. */
export interface CodexCompaction {
  /** The summary as the compacted context carries it (Codex's prefix, then the summary). */
  summary: string;
  /** The user's messages the client kept word for word in the compacted context, oldest first. */
  kept: string[];
  /** The `compacted` row's time. */
  timestamp?: string;
}

/**
 * The newest compaction within the rollout's last `budgetBytes` (the `compacted` row Codex writes
 * once the summary is back, before SessionStart(compact) runs), or undefined when there is none.
 * Claude Code's SessionStart cannot read its compaction's summary; Codex's can, so rehydrate adds
 * at once only what that summary lacks.
 *
 * @example
 * ```ts
 * import { newestCompaction } from "./newest_compaction.ts";
 * const compaction = newestCompaction("/home/me/.codex/sessions/2026/11/28/rollout-….jsonl");
 * if (compaction) console.log(compaction.summary.length, compaction.kept.length);
 * ```
 */
export function newestCompaction(
  rolloutPath: string,
  options: { budgetBytes?: number } = {},
): CodexCompaction | undefined {
  const rows = rolloutRows(rolloutPath, { budgetBytes: options.budgetBytes });
  try {
    for (let row = rows.next(); row !== undefined; row = rows.next()) {
      if (row.type !== "compacted") continue;
      for (const item of rolloutItems(row)) {
        if (item.kind !== "compacted") continue;
        return {
          summary: item.summary,
          kept: item.kept,
          ...(row.timestamp === undefined ? {} : { timestamp: row.timestamp }),
        };
      }
    }
  } finally {
    rows.close();
  }
  return undefined;
}
