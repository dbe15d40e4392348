import type { TranscriptRow } from "./transcript_row.ts";
import { isMainChainRow } from "./rows.ts";

/**
 * Keeps the rows of the main conversation, in the order given. Drops sidechain rows
 * (`isSidechain: true`, the inline subagents of 2.0.x files), `progress` rows (whose
 * `agent_progress` data embeds a subagent's usage), synthetic API-error rows
 * (`isApiErrorMessage` or model `<synthetic>`) and metadata rows that carry no `message`
 * (`file-history-snapshot`, `queue-operation`, `last-prompt`, `summary`, …). Keeps `user`,
 * `assistant`, `attachment` and `system` rows, compact boundaries included.
 *
 * @example
 * ```ts
 * import { mainChainRows } from "./main_chain_rows.ts";
 * import { scanTranscript } from "./scan_transcript.ts";
 *
 * for (const row of mainChainRows(scanTranscript("/tmp/session.jsonl"))) {
 *   console.log(row.type, row.uuid);
 * }
 * ```
 */
export function* mainChainRows(rows: Iterable<TranscriptRow>): Generator<TranscriptRow, void, undefined> {
  for (const row of rows) {
    if (isMainChainRow(row)) yield row;
  }
}
