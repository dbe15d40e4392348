import { containsAny, needle, parseRow, reverseLines } from "./lines.ts";
import { DEFAULT_SCAN_CHUNK_BYTES } from "./scan_transcript.ts";
import { isCompactBoundaryRow } from "./rows.ts";

/** Longest summary returned, in UTF-16 units; a summary is some kilobytes. */
export const MAX_COMPACT_SUMMARY_CHARS = 200_000;
/** The lines worth parsing: the summary row and the boundary row. */
const NEEDLES = ["isCompactSummary", "compact_boundary"].map(needle);

/**
 * The summary Claude Code wrote for the transcript's newest compaction: the text of the
 * `isCompactSummary` user row it writes right after the `compact_boundary` row, read backwards
 * from the end (at most `budgetBytes`; only the lines that spell one of the two are parsed).
 * Undefined when the newest boundary met has no summary after it, or none is within the budget.
 * The summary is what the model now starts from, so the first prompt after a compaction can give
 * only what it lacks.
 *
 * @example
 * ```ts
 * import { compactSummary } from "./compact_summary.ts";
 * const summary = compactSummary("/home/me/.claude/projects/-home-me-app/7da37d46.jsonl", 8 << 20);
 * // "This session is being continued from a previous conversation …"
 * ```
 */
export function compactSummary(transcriptPath: string, budgetBytes: number): string | undefined {
  const lines = reverseLines(transcriptPath, budgetBytes, DEFAULT_SCAN_CHUNK_BYTES);
  try {
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      if (!containsAny(line, NEEDLES)) continue;
      const row = parseRow(line);
      if (row === undefined) continue;
      if (isCompactBoundaryRow(row)) return undefined;
      if (row.type !== "user" || row.isCompactSummary !== true || row.isSidechain === true) continue;
      const content = row.message?.content;
      let text = "";
      if (typeof content === "string") text = content;
      else if (Array.isArray(content)) {
        for (const block of content) {
          if (typeof block === "object" && block !== null && typeof block.text === "string") {
            text += (text === "" ? "" : "\n") + block.text;
          }
        }
      }
      return text === "" ? undefined : text.slice(0, MAX_COMPACT_SUMMARY_CHARS);
    }
    return undefined;
  } finally {
    lines.close();
  }
}
