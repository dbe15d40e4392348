import { containsAny, needle, reverseLines, type ReverseLinesStats } from "../transcript/lines.ts";
import { DEFAULT_SCAN_BUDGET_BYTES, DEFAULT_SCAN_CHUNK_BYTES } from "../transcript/scan_transcript.ts";
import { parseRolloutRow, type RolloutRow } from "./rollout_row.ts";
import type { Buffer } from "node:buffer";

/** Options of {@linkcode rolloutRows}. */
export interface RolloutRowsOptions {
  /** Bytes read backwards from the end. Default 8 MiB (`transcript.scanBudgetBytes`). */
  budgetBytes?: number;
  /** Filled with the bytes read and whether the start was reached. */
  stats?: ReverseLinesStats;
}

/** The rows {@linkcode rolloutRows} gives, newest first. */
export interface RolloutRows {
  /** The next row (older than the last), or undefined when there are no more. */
  next(): RolloutRow | undefined;
  /** Closes the file; needed only when the caller stops early. */
  close(): void;
}

let wanted: Buffer[] | undefined;

/**
 * The rows of a Codex rollout that can hold what {@linkcode rolloutItems} reads, newest first,
 * from at most `budgetBytes` at the file's end (one backward pass; the cost does not grow with the
 * file). A line is parsed only when its bytes name one of those shapes (a user or assistant
 * message, a tool call, a finished command or file change, a token count, a compaction, a turn's
 * context): the client's instructions, world state and tool outputs, most of a rollout's bytes,
 * are never decoded. Malformed lines are skipped; a missing or unreadable file gives no rows.
 *
 * @example
 * ```ts
 * import { rolloutRows } from "./rollout_rows.ts";
 * const rows = rolloutRows("/home/me/.codex/sessions/2026/11/28/rollout-….jsonl");
 * try {
 *   for (let row = rows.next(); row !== undefined; row = rows.next()) if (row.type === "compacted") break;
 * } finally {
 *   rows.close();
 * }
 * ```
 */
export function rolloutRows(path: string, options: RolloutRowsOptions = {}): RolloutRows {
  const budget = typeof options.budgetBytes === "number" && options.budgetBytes >= 1
    ? Math.floor(options.budgetBytes)
    : DEFAULT_SCAN_BUDGET_BYTES;
  const lines = reverseLines(path, budget, DEFAULT_SCAN_CHUNK_BYTES, options.stats);
  // Built on first use: no module-level work in the hooks.
  const needles = wanted ??= [
    '"role":"user"',
    '"role":"assistant"',
    '"type":"function_call"',
    '"type":"custom_tool_call"',
    '"CommandExecution"',
    '"FileChange"',
    '"type":"token_count"',
    '"type":"compacted"',
    '"type":"turn_context"',
  ].map(needle);
  return {
    next(): RolloutRow | undefined {
      for (let line = lines.next(); line !== undefined; line = lines.next()) {
        if (!containsAny(line, needles)) continue;
        const row = parseRolloutRow(line);
        if (row !== undefined) return row;
      }
      return undefined;
    },
    close: lines.close,
  };
}
