import type { Buffer } from "node:buffer";
import { parseRow } from "../transcript/lines.ts";

/**
 * One line of a Codex rollout (`CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`), as
 * Codex 0.171.0 writes it: `{ timestamp, ordinal, type, payload }`. The row types rehydrate reads
 * are `response_item` (messages, tool calls and their outputs), `event_msg` (`item_completed`
 * with a `CommandExecution` or a `FileChange`, `token_count`), `compacted` (a compaction's summary)
 * and `turn_context` (the turn's `cwd`); the rest (`session_meta`, `world_state`,
 * `token_usage_record`, …) are skipped. Every field may be missing or of another type in a file
 * from another version: readers check each one.
 */
export interface RolloutRow {
  timestamp?: string;
  /** The row's place in the file, counted from 0 (0.171.0 writes it on every row). */
  ordinal?: number;
  type: string;
  payload: Record<string, unknown>;
  /** The row's own metadata (`compaction_output: true` on the compaction's summary reply). */
  metadata?: Record<string, unknown>;
}

/**
 * Parses one rollout line (bytes or text): a JSON object with a string `type` and an object
 * `payload`, or undefined for anything else. Never throws.
 *
 * @example
 * ```ts
 * import { parseRolloutRow } from "./rollout_row.ts";
 * parseRolloutRow('{"timestamp":"2026-11-28T15:04:20.657Z","ordinal":9,"type":"response_item","payload":{"type":"message"}}')?.ordinal; // 9
 * parseRolloutRow("not json"); // undefined
 * ```
 */
export function parseRolloutRow(line: Buffer | string): RolloutRow | undefined {
  const row = parseRow(line) as
    | { type?: unknown; payload?: unknown; timestamp?: unknown; ordinal?: unknown; metadata?: unknown }
    | undefined;
  if (row === undefined || typeof row.type !== "string") return undefined;
  if (row.payload === null || typeof row.payload !== "object" || Array.isArray(row.payload)) return undefined;
  const out: RolloutRow = { type: row.type, payload: row.payload as Record<string, unknown> };
  if (typeof row.timestamp === "string" && row.timestamp.length <= 64) out.timestamp = row.timestamp;
  if (typeof row.ordinal === "number" && Number.isSafeInteger(row.ordinal) && row.ordinal >= 0) {
    out.ordinal = row.ordinal;
  }
  if (row.metadata !== null && typeof row.metadata === "object" && !Array.isArray(row.metadata)) {
    out.metadata = row.metadata as Record<string, unknown>;
  }
  return out;
}
