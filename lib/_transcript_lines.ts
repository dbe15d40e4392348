import { closeSync, constants, fstatSync, openSync, readSync } from "./_node_fs.ts";
import { Buffer } from "node:buffer";
import type { TranscriptRow } from "./transcript_row.ts";

/** Progress of a backward read, shared with the public scan's stats. */
export interface ReverseLinesStats {
  bytesRead: number;
  reachedStart: boolean;
}

const NEWLINE = 0x0a;
// A FIFO at the transcript path must not block the open; fstat then refuses it.
const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;
const CARRIAGE_RETURN = 0x0d;

/**
 * Yields the non-empty lines of a file newest first as raw bytes (no `\n`, no trailing `\r`, no
 * BOM on the first line), reading at most `budget` bytes backwards from the end in chunks of
 * `chunkBytes`. A line is yielded only when its start is known: the `\n` before it was read, or
 * it begins at offset 0. Yielded buffers may share memory with the read chunks, but every chunk
 * is a fresh buffer that is never written again, so a line may be kept and decoded later
 * (`collectEvidenceFromLines` does). Missing, unreadable or non-regular files yield nothing.
 */
export function* reverseLines(
  path: string,
  budget: number,
  chunkBytes: number,
  stats?: ReverseLinesStats,
): Generator<Buffer, void, undefined> {
  if (typeof path !== "string" || path === "") return;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
  } catch {
    return;
  }
  try {
    let size: number;
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return;
      size = st.size;
    } catch {
      return;
    }
    let pos = size;
    let bytesRead = 0;
    // Bytes of the line whose start has not been read yet, in file order.
    let carry: Buffer[] = [];
    while (pos > 0 && bytesRead < budget) {
      const want = Math.min(chunkBytes, pos, budget - bytesRead);
      // A fresh buffer per chunk: `carry` and yielded lines may still point into the last one.
      const buf = Buffer.allocUnsafe(want);
      if (!readFully(fd, buf, pos - want)) return;
      pos -= want;
      bytesRead += want;
      if (stats) {
        stats.bytesRead = bytesRead;
        stats.reachedStart = pos === 0;
      }
      let end = want;
      let nl = buf.lastIndexOf(NEWLINE, end - 1);
      while (nl !== -1) {
        let line = buf.subarray(nl + 1, end);
        if (carry.length > 0) {
          carry.unshift(line);
          line = Buffer.concat(carry);
          carry = [];
        }
        const trimmed = trimCr(line);
        if (trimmed.length > 0) yield trimmed;
        end = nl;
        nl = end > 0 ? buf.lastIndexOf(NEWLINE, end - 1) : -1;
      }
      if (end > 0) carry.unshift(end === want ? buf : buf.subarray(0, end));
    }
    if (pos === 0 && carry.length > 0) {
      let first = carry.length === 1 ? carry[0] : Buffer.concat(carry);
      carry = [];
      if (first.length >= 3 && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf) {
        first = first.subarray(3);
      }
      const trimmed = trimCr(first);
      if (trimmed.length > 0) yield trimmed;
    }
  } finally {
    try {
      closeSync(fd);
    } catch { /* already closed */ }
  }
}

/** Parses one line into a row: a JSON object, or undefined for anything else. */
export function parseRow(line: Buffer): TranscriptRow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return value as TranscriptRow;
}

/**
 * The UTF-8 bytes of `s` as a Buffer, for `indexOf` on transcript lines. Built with TextEncoder,
 * not `Buffer.from`: Bun compiles `Buffer.from` from source on its first call, which cost the usual
 * prompt 0.25-0.5 million instructions (bench/README.md, "What start-up pays for").
 *
 * @example
 * ```ts
 * const ASSISTANT = needle('"assistant"');
 * if (line.indexOf(ASSISTANT) !== -1) console.log("may be an assistant row");
 * ```
 */
export function needle(s: string): Buffer {
  const bytes = new TextEncoder().encode(s);
  const out = Buffer.allocUnsafe(bytes.length);
  out.set(bytes);
  return out;
}

/** True when `line` contains any of `needles`. */
export function containsAny(line: Buffer, needles: readonly Buffer[]): boolean {
  for (const needle of needles) {
    if (line.indexOf(needle) !== -1) return true;
  }
  return false;
}

function trimCr(line: Buffer): Buffer {
  const n = line.length;
  return n > 0 && line[n - 1] === CARRIAGE_RETURN ? line.subarray(0, n - 1) : line;
}

function readFully(fd: number, buf: Buffer, position: number): boolean {
  let off = 0;
  try {
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, position + off);
      if (n <= 0) return false;
      off += n;
    }
  } catch {
    return false;
  }
  return true;
}

/** `value` floored when it is a finite number ≥ 1, else `fallback`. */
export function positiveInt(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}
