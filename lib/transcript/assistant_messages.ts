import type { TranscriptRow } from "./transcript_row.ts";
import { isMainChainRow } from "./rows.ts";

/**
 * Main-chain assistant rows, one per API response. The client writes one row per content block,
 * all sharing `message.id` and the same input and cache usage while `output_tokens` may grow, so
 * with `rows` newest first (as {@linkcode scanTranscript} yields them) the row kept for each id is
 * the first one seen: the newest, whose usage is the final one. Its `message.content` holds only
 * that row's own block; the other blocks of the response are not merged in. Rows without a
 * `message.id` are each kept. Sidechain, progress and synthetic API-error rows are dropped.
 *
 * @example
 * ```ts
 * import { assistantMessages } from "./assistant_messages.ts";
 * import { scanTranscript } from "./scan_transcript.ts";
 *
 * for (const row of assistantMessages(scanTranscript("/tmp/session.jsonl"))) {
 *   console.log(row.message?.id, row.message?.usage?.output_tokens);
 * }
 * ```
 */
export function* assistantMessages(rows: Iterable<TranscriptRow>): Generator<TranscriptRow, void, undefined> {
  const seen = new Set<string>();
  for (const row of rows) {
    if (row.type !== "assistant" || !isMainChainRow(row)) continue;
    const message = row.message;
    if (typeof message !== "object" || message === null) continue;
    const id = message.id;
    if (typeof id === "string" && id !== "") {
      if (seen.has(id)) continue;
      seen.add(id);
    }
    yield row;
  }
}
