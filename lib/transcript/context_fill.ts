import type { Buffer } from "node:buffer";
import type { TranscriptRow } from "./transcript_row.ts";
import { DEFAULT_SCAN_BUDGET_BYTES, DEFAULT_SCAN_CHUNK_BYTES } from "./scan_transcript.ts";
import { contextWindow } from "./context_window.ts";
import { containsAny, needle, parseRow, positiveInt, reverseLines, reverseTextLines } from "./lines.ts";
import { contextTokensOfUsage, isCompactBoundaryRow, isSyntheticRow, tokenCount } from "./rows.ts";

/** Options for {@linkcode contextFill}. */
export interface ContextFillOptions {
  /**
   * The main-loop model setting, e.g. from the SessionStart hook input, which can carry the
   * `[1m]` suffix; Claude Code's transcript rows carry the API's model id, without it (a row whose
   * id does mark 1M still gives the 1M window). Default: the model of the row used.
   */
  model?: string;
  /** The window size in tokens; wins over any guess from the model. Default: {@linkcode contextWindow}. */
  windowTokens?: number;
  /**
   * Tokens in the context as the client reported them (Claude Code's `context_tokens`, sent on
   * SessionStart resume and on model switches). Only a hint for the window: more than 200,000
   * proves the 1M window, as tokens seen in the transcript do. Default: none.
   */
  contextTokens?: number;
  /**
   * The window the client compacts against when smaller than the model's (`autoCompactWindow()` of
   * CLAUDE_CODE_AUTO_COMPACT_WINDOW): the window is at most this. Default: none.
   */
  maxWindowTokens?: number;
  /** Bytes read from the end of the transcript at most. Default 8 MiB. */
  budgetBytes?: number;
  /**
   * Stop reading as soon as the usage row is found instead of going on to look for an older
   * compact boundary; `afterCompaction` is then only true when the boundary came first. The hot
   * path (every prompt) sets it: in a long session without compaction the search for a boundary
   * reads the whole budget. Default false.
   */
  stopAtUsage?: boolean;
}

/** How full the context window is, as the client's status line computes it. */
export interface ContextFill {
  /** Tokens in the context: input + cache creation + cache read (output tokens excluded). */
  tokens: number;
  /** Window size in tokens. */
  window: number;
  /** `tokens / window`; may exceed 1 only with an explicit `windowTokens` or `maxWindowTokens`. */
  fraction: number;
  /**
   * `"usage"`: from the newest main-chain assistant row after the last compaction.
   * `"boundary"`: a compaction with no assistant row after it, from its `postTokens`.
   * `"none"`: nothing usable within the budget (tokens 0).
   */
  source: "usage" | "boundary" | "none";
  /** `options.model` when given, else the model of the assistant row used. */
  model?: string;
  /** True when a compact boundary was found older than the measurement (within the budget). */
  afterCompaction: boolean;
}

const ASSISTANT = '"assistant"';
const BOUNDARY = '"compact_boundary"';
// As bytes for the long scan, made on its first use (see reverseTextLines).
let phases: { one: readonly Buffer[]; two: readonly Buffer[] } | undefined;

/**
 * Measures how full the context window of a session is from its transcript, reading backwards
 * from the end with a byte budget. The tokens are those of the newest main-chain assistant row
 * (not a sidechain, not `<synthetic>`, not the subagent usage embedded in `progress` rows) that
 * comes after the last compact boundary; with `usage.iterations`, its last non-compaction
 * iteration. Usage from before the last boundary is never used: if no assistant row follows it,
 * the boundary's `compactMetadata.postTokens` is used (source `"boundary"`), and without that the
 * result is 0 with source `"none"`. Rows are one per content block but repeat the same input and
 * cache usage, so taking the newest row is exact and nothing is summed.
 *
 * Lines that cannot hold an assistant row or a boundary are skipped by a byte test before any
 * decoding; once the usage is found, only boundary lines are parsed (to set `afterCompaction`).
 * With `stopAtUsage`, which usually stops within the last few lines, each line is decoded and tested
 * as text instead (no Buffer: `reverseTextLines`).
 * Never throws: a missing file gives source `"none"`.
 *
 * @example
 * ```ts
 * import { contextFill } from "./context_fill.ts";
 *
 * const fill = contextFill("/home/me/.claude/projects/-p/1234.jsonl", { model: "claude-opus-4-6[1m]" });
 * console.log(`${Math.round(fill.fraction * 100)}% of ${fill.window}`);
 * ```
 */
export function contextFill(transcriptPath: string, options: ContextFillOptions = {}): ContextFill {
  const budget = positiveInt(options.budgetBytes, DEFAULT_SCAN_BUDGET_BYTES);
  let tokens = 0;
  let source: ContextFill["source"] = "none";
  let rowModel: string | undefined;
  let afterCompaction = false;
  // The newest usage or boundary row that counts; with stopAtUsage that is all, else an older
  // boundary is still looked for. Returns true when the scan is done.
  const take = (row: TranscriptRow | undefined): boolean => {
    if (row === undefined || row.isSidechain === true) return false;
    if (isCompactBoundaryRow(row)) {
      afterCompaction = true;
      if (source === "none") {
        const post = row.compactMetadata?.postTokens;
        if (typeof post === "number" && Number.isFinite(post) && post >= 0) {
          tokens = post;
          source = "boundary";
        }
      }
      return true;
    }
    if (source !== "none" || row.type !== "assistant" || isSyntheticRow(row)) return false;
    const message = row.message;
    if (typeof message !== "object" || message === null) return false;
    const used = contextTokensOfUsage(message.usage);
    if (used === undefined) return false;
    tokens = used;
    source = "usage";
    if (typeof message.model === "string") rowModel = message.model;
    return options.stopAtUsage === true;
  };
  if (options.stopAtUsage) {
    // Usually among the last few lines: each decoded and tested as text, without Buffer.
    const lines = reverseTextLines(transcriptPath, budget, DEFAULT_SCAN_CHUNK_BYTES);
    try {
      for (let line = lines.next(); line !== undefined; line = lines.next()) {
        if ((line.includes(ASSISTANT) || line.includes(BOUNDARY)) && take(parseRow(line))) break;
      }
    } finally {
      lines.close();
    }
  } else {
    phases ??= { one: [needle(ASSISTANT), needle(BOUNDARY)], two: [needle(BOUNDARY)] };
    const lines = reverseLines(transcriptPath, budget, DEFAULT_SCAN_CHUNK_BYTES);
    try {
      for (let line = lines.next(); line !== undefined; line = lines.next()) {
        if (containsAny(line, source === "none" ? phases.one : phases.two) && take(parseRow(line))) break;
      }
    } finally {
      lines.close();
    }
  }
  const model = options.model ?? rowModel;
  // The model setting, the row's model id (a gateway may keep `[1m]` there) or the tokens seen may
  // each prove the 1M window.
  const seen = Math.max(tokens, positiveInt(options.contextTokens, 0));
  let window = typeof options.windowTokens === "number" && options.windowTokens > 0
    ? options.windowTokens
    : Math.max(contextWindow(model, seen), contextWindow(rowModel));
  if (typeof options.maxWindowTokens === "number" && options.maxWindowTokens > 0) {
    window = Math.min(window, options.maxWindowTokens);
  }
  const out: ContextFill = { tokens: tokenCount(tokens), window, fraction: tokens / window, source, afterCompaction };
  if (model !== undefined) out.model = model;
  return out;
}
