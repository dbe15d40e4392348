import type { TranscriptRow, TranscriptUsage } from "./transcript_row.ts";

/** Row types that belong to the conversation; everything else is progress or metadata. */
const MESSAGE_TYPES: ReadonlySet<string> = new Set(["user", "assistant", "attachment", "system"]);

/** True for rows the client itself wrote for a failed API call (`<synthetic>` model). */
export function isSyntheticRow(row: TranscriptRow): boolean {
  if (row.isApiErrorMessage === true) return true;
  const message = row.message;
  return typeof message === "object" && message !== null && message.model === "<synthetic>";
}

/**
 * True for rows of the main conversation: not a sidechain, not `progress` (whose
 * `agent_progress` data embeds a subagent's usage), not a synthetic API-error row, and not a
 * metadata row (`file-history-snapshot`, `queue-operation`, `last-prompt`, …) without a message.
 */
export function isMainChainRow(row: TranscriptRow): boolean {
  if (row.isSidechain === true) return false;
  const type = row.type;
  if (type === "progress") return false;
  if (typeof type !== "string" || !MESSAGE_TYPES.has(type)) {
    if (typeof row.message !== "object" || row.message === null) return false;
  }
  return !isSyntheticRow(row);
}

/** True for a main-chain `system`/`compact_boundary` row. */
export function isCompactBoundaryRow(row: TranscriptRow): boolean {
  return row.type === "system" && row.subtype === "compact_boundary" && row.isSidechain !== true;
}

/** A finite non-negative number, else 0. */
export function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * Tokens in the context window described by one usage object: input + cache creation + cache
 * read. With `iterations` (a server-side tool loop) the last non-compaction iteration is the
 * final request, as the client's own normalisation does. Returns undefined without usage.
 */
export function contextTokensOfUsage(usage: unknown): number | undefined {
  if (typeof usage !== "object" || usage === null || Array.isArray(usage)) return undefined;
  let source = usage as TranscriptUsage;
  const iterations = source.iterations;
  if (Array.isArray(iterations)) {
    for (let i = iterations.length - 1; i >= 0; i--) {
      const it = iterations[i];
      if (typeof it === "object" && it !== null && it.type !== "compaction") {
        source = it as TranscriptUsage;
        break;
      }
    }
  }
  return tokenCount(source.input_tokens) + tokenCount(source.cache_creation_input_tokens) +
    tokenCount(source.cache_read_input_tokens);
}
