import type { TranscriptRow } from "./transcript_row.ts";
import { containsAny, needle, parseRow, positiveInt, reverseLines } from "./lines.ts";

/** Bytes read from the end of the file before the scan stops: 8 MiB. */
export const DEFAULT_SCAN_BUDGET_BYTES: number = 8 * 1024 * 1024;
/** Size of one read: 64 KiB. */
export const DEFAULT_SCAN_CHUNK_BYTES: number = 64 * 1024;

/** What a scan did, filled in by {@linkcode scanTranscript} when passed as `options.stats`. */
export interface ScanTranscriptStats {
  /** Bytes read from the file so far. Never more than `budgetBytes`. */
  bytesRead: number;
  /** True once the scan has read the first byte of the file (so nothing older exists). */
  reachedStart: boolean;
  /** Non-blank lines that passed the prefilter but were not a JSON object (invalid or cut lines). */
  skippedLines: number;
}

/** Options for {@linkcode scanTranscript}. */
export interface ScanTranscriptOptions {
  /**
   * Most bytes to read, counted from the end of the file. Rows whose line does not lie wholly
   * inside that window are not yielded. Default {@linkcode DEFAULT_SCAN_BUDGET_BYTES} (8 MiB).
   */
  budgetBytes?: number;
  /** Bytes per read. Default {@linkcode DEFAULT_SCAN_CHUNK_BYTES} (64 KiB). */
  chunkBytes?: number;
  /**
   * Cheap prefilter on the raw line bytes: when given, a line is decoded and parsed only if it
   * contains at least one of these strings (compared as UTF-8 bytes). Use tokens that the row
   * must contain whatever its formatting, such as `"\"assistant\""`; a false positive only costs
   * a parse. Default: parse every line.
   */
  contains?: readonly string[];
  /** Filled in while the scan runs; read it after the loop. */
  stats?: ScanTranscriptStats;
}

/**
 * Yields the rows of a JSONL transcript newest first, reading the file backwards in chunks so
 * the cost depends on the budget, not on the file size.
 *
 * Each line is split on raw `\n` bytes and decoded whole, so multi-byte characters cut by a chunk
 * boundary and lines longer than a chunk come out intact. A trailing `\r` (CRLF) and a UTF-8 BOM
 * at the start of the file are dropped. Blank lines, lines that are not valid JSON (including a
 * half-written last line) and JSON values that are not objects are skipped; a complete last line
 * without a final newline is yielded.
 *
 * Budget guarantee: at most `budgetBytes` bytes are read, all of them from the window
 * `[size - budgetBytes, size)`. A line is yielded only if the byte before it (its preceding `\n`)
 * lies inside that window, or if it is the first line and the whole file fits the window. So the
 * rows yielded are exactly the newest rows of a full parse whose lines start after the window's
 * first byte; a line cut by the window edge is never yielded half.
 *
 * A missing or unreadable file, or an empty path, yields nothing. Never throws on I/O errors.
 * The file is closed when the loop ends or is broken out of.
 *
 * @example
 * ```ts
 * import { scanTranscript } from "./scan_transcript.ts";
 *
 * for (const row of scanTranscript("/home/me/.claude/projects/-p/1234.jsonl")) {
 *   if (row.type === "assistant") {
 *     console.log(row.message?.usage);
 *     break; // the newest assistant row; the rest of the file is never read
 *   }
 * }
 * ```
 */
export function* scanTranscript(
  path: string,
  options: ScanTranscriptOptions = {},
): Generator<TranscriptRow, void, undefined> {
  const stats = options.stats;
  if (stats) {
    stats.bytesRead = 0;
    stats.reachedStart = false;
    stats.skippedLines = 0;
  }
  const budget = positiveInt(options.budgetBytes, DEFAULT_SCAN_BUDGET_BYTES);
  const chunkBytes = positiveInt(options.chunkBytes, DEFAULT_SCAN_CHUNK_BYTES);
  const needles = options.contains?.map(needle);

  const lines = reverseLines(path, budget, chunkBytes, stats);
  try {
    for (let line = lines.next(); line !== undefined; line = lines.next()) {
      if (needles !== undefined && !containsAny(line, needles)) continue;
      const row = parseRow(line);
      if (row !== undefined) yield row;
      else if (stats) stats.skippedLines++;
    }
  } finally {
    lines.close();
  }
}
