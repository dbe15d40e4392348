/**
 * Private helper of the session layer: the `tool_result` blocks of a main-chain `user` row, with
 * the row's `toolUseResult` when it can only belong to that block (the client writes one result
 * per row; a row with several blocks leaves it unattributed).
 *
 * @module
 */
import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { isMainChainRow } from "../transcript/rows.ts";

/** One tool result. */
export interface ToolResult {
  /** The `tool_use` block it answers. */
  id: string;
  /** `is_error: true` on the block: the call did nothing. */
  isError: boolean;
  /** The block's content as written. */
  content: unknown;
  /** The row's `toolUseResult` object, when the row has this one block only. */
  detail?: Record<string, unknown>;
}

/**
 * The tool results of `row`; none for anything but a main-chain `user` row with blocks.
 *
 * @example
 * ```ts
 * toolResults({ type: "user", toolUseResult: { type: "create" }, message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] } });
 * // [{ id: "t1", isError: false, content: "ok", detail: { type: "create" } }]
 * ```
 */
export function toolResults(row: TranscriptRow): ToolResult[] {
  if (row.type !== "user") return [];
  const content = row.message?.content;
  if (!Array.isArray(content) || !isMainChainRow(row)) return [];
  const out: ToolResult[] = [];
  for (const block of content) {
    if (typeof block !== "object" || block === null || block.type !== "tool_result") continue;
    if (typeof block.tool_use_id !== "string" || block.tool_use_id === "") continue;
    out.push({ id: block.tool_use_id, isError: block.is_error === true, content: block.content });
  }
  const detail = row.toolUseResult;
  if (out.length === 1 && typeof detail === "object" && detail !== null && !Array.isArray(detail)) {
    out[0].detail = detail as Record<string, unknown>;
  }
  return out;
}

/**
 * The text of a result's content: the string, or its text blocks joined.
 *
 * @example
 * ```ts
 * resultText([{ type: "text", text: "a" }, { type: "text", text: "b" }]); // "a\nb"
 * ```
 */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content) {
    if (typeof block === "object" && block !== null && typeof (block as { text?: unknown }).text === "string") {
      out += (out === "" ? "" : "\n") + (block as { text: string }).text;
    }
  }
  return out;
}
