import { closeSync, constants, fstatSync, openSync, readSync } from "../node/fs.ts";
import type { Buffer } from "node:buffer";
import type { TranscriptRow } from "./transcript_row.ts";

/** Progress of a backward read, shared with the public scan's stats. */
export interface ReverseLinesStats {
  bytesRead: number;
  reachedStart: boolean;
  /**
   * Where the last line given starts in the file (the oldest so far), once one was given: a
   * further read with `end` there goes on with the lines before it.
   */
  lastLineStart?: number;
}

/** A file's lines newest first: {@linkcode reverseLines} (bytes) or {@linkcode reverseTextLines} (text). */
export interface ReverseLines<T> {
  /** The next line (older than the last), or undefined when there are no more. */
  next(): T | undefined;
  /** Closes the file; needed only when the caller stops before `next()` gave undefined. */
  close(): void;
}

/**
 * {@linkcode reverseLines}: the lines as bytes, each valid only until the next `next()`, with
 * where the last one lies in the file so that a line worth keeping can be read again later.
 */
export interface ReverseByteLines extends ReverseLines<Buffer> {
  /** File offset of the first byte of the line `next()` gave last; -1 before the first. */
  lineStart(): number;
  /**
   * `length` bytes at `offset` read again from the file, or undefined once the file is closed or
   * the read fails. Valid until the next `readAt()` (the buffer is reused).
   */
  readAt(offset: number, length: number): Buffer | undefined;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
// A FIFO at the transcript path must not block the open; fstat then refuses it.
const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;

// node:buffer is loaded on first use: the usual prompt reads text lines and never needs it, and
// loading it (with Bun's Buffer class) is a measurable part of that prompt's cost
// (bench/README.md).
let bufferClass: typeof Buffer | undefined;
function buffers(): typeof Buffer {
  return bufferClass ??= (process.getBuiltinModule("node:buffer") as { Buffer: typeof Buffer }).Buffer;
}
const allocBuffer = (n: number): Uint8Array => buffers().allocUnsafe(n);
const allocPlain = (n: number): Uint8Array => new Uint8Array(n);
let decoder: TextDecoder | undefined;

/**
 * The non-empty lines of a file newest first as raw bytes (no `\n`, no trailing `\r`, no BOM on
 * the first line), reading at most `budget` bytes backwards from the end in chunks of
 * `chunkBytes`. A line is given only when its start is known: the `\n` before it was read, or it
 * begins at offset 0. Every chunk is read into the same buffer, so a given line is valid only
 * until the next `next()`: a caller that keeps one keeps its place instead (`lineStart()`, its
 * length) and reads it again with `readAt()` (`collectEvidenceFromLines` does). Fresh memory is
 * what a short-lived process pays most for: each new page costs a fault (bench/README.md).
 * Missing, unreadable or non-regular files give no lines. With `end`, the file is read as if it
 * ended there: a caller that went through `budget` bytes goes on before the last line it was
 * given (`stats.lastLineStart`) with a further budget.
 *
 * For scans that test most lines for a few bytes before decoding any ({@linkcode containsAny});
 * a read that decodes every line it meets is cheaper with {@linkcode reverseTextLines}.
 *
 * @example
 * ```ts
 * const ASSISTANT = needle('"assistant"');
 * const lines = reverseLines("/tmp/session.jsonl", 8 << 20, 65_536);
 * try {
 *   for (let line = lines.next(); line !== undefined; line = lines.next()) {
 *     if (line.indexOf(ASSISTANT) !== -1) console.log(lines.lineStart(), parseRow(line)?.uuid);
 *   }
 * } finally {
 *   lines.close();
 * }
 * ```
 */
export function reverseLines(
  path: string,
  budget: number,
  chunkBytes: number,
  stats?: ReverseLinesStats,
  end?: number,
): ReverseByteLines {
  return rawLines(path, budget, chunkBytes, stats, allocBuffer, end) as unknown as ReverseByteLines;
}

/**
 * {@linkcode reverseLines} decoded: the same lines as UTF-8 text (kept as long as wanted), read
 * into plain typed arrays.
 * No `Buffer`: the usual prompt's fill reads this way (bench/README.md, "The usual prompt's fast
 * path"). Every line is decoded, so a long scan that skips most lines is cheaper on the bytes.
 *
 * @example
 * ```ts
 * const lines = reverseTextLines("/tmp/session.jsonl", 8 << 20, 65_536);
 * try {
 *   for (let line = lines.next(); line !== undefined; line = lines.next()) {
 *     if (line.includes('"assistant"')) break; // the newest assistant row's line
 *   }
 * } finally {
 *   lines.close();
 * }
 * ```
 */
export function reverseTextLines(
  path: string,
  budget: number,
  chunkBytes: number,
  stats?: ReverseLinesStats,
): ReverseLines<string> {
  const lines = rawLines(path, budget, chunkBytes, stats, allocPlain);
  // ignoreBOM: a BOM is dropped only at the start of the file (rawLines), as for the bytes.
  const utf8 = decoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
  return {
    next: () => {
      const line = lines.next();
      return line === undefined ? undefined : utf8.decode(line);
    },
    close: lines.close,
  };
}

/** {@linkcode reverseLines}, in arrays from `alloc`, of the file's first `fileEnd` bytes (default all). */
function rawLines(
  path: string,
  budget: number,
  chunkBytes: number,
  stats: ReverseLinesStats | undefined,
  alloc: (n: number) => Uint8Array,
  fileEnd?: number,
): ReverseLines<Uint8Array> & {
  lineStart(): number;
  readAt(offset: number, length: number): Uint8Array | undefined;
} {
  let fd = -1;
  let pos = 0;
  if (typeof path === "string" && path !== "") {
    try {
      fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
      const st = fstatSync(fd);
      if (st.isFile()) {
        pos = typeof fileEnd === "number" && fileEnd >= 0 ? Math.min(st.size, Math.floor(fileEnd)) : st.size;
      }
    } catch { /* no lines */ }
  }
  let bytesRead = 0;
  // The buffer every chunk is read into, made on the first read (the largest one).
  let shared: Uint8Array | undefined;
  // A line longer than what is left of its chunk is read again whole into `whole`, which only grows.
  let whole: Uint8Array | undefined;
  // Where `readAt` reads into, which only grows.
  let scratch: Uint8Array | undefined;
  // The last chunk (a view of `shared`), its offset in the file, and where its lines not yet given end.
  let buf: Uint8Array | undefined;
  let bufStart = 0;
  let end = 0;
  // File offset where the line whose start has not been read yet ends; -1 when none is pending.
  let pendingEnd = -1;
  let start = -1;

  const close = (): void => {
    if (fd < 0) return;
    try {
      closeSync(fd);
    } catch { /* already closed */ }
    fd = -1;
  };

  /** Bytes [from, to) of the file in a reused buffer (the file is in the page cache: it was just read). */
  const reread = (from: number, to: number, into: "whole" | "scratch"): Uint8Array | undefined => {
    const n = to - from;
    let out = into === "whole" ? whole : scratch;
    if (out === undefined || out.length < n) {
      out = alloc(Math.max(n, out === undefined ? 0 : Math.min(2 * out.length, 64 << 20)));
      if (into === "whole") whole = out;
      else scratch = out;
    }
    const view = out.length === n ? out : out.subarray(0, n);
    return readFully(fd, view, from) ? view : undefined;
  };

  const next = (): Uint8Array | undefined => {
    for (;;) {
      if (buf !== undefined) {
        const nl = end > 0 ? buf.lastIndexOf(NEWLINE, end - 1) : -1;
        if (nl !== -1) {
          let line: Uint8Array | undefined = buf.subarray(nl + 1, end);
          if (pendingEnd !== -1) {
            line = reread(bufStart + nl + 1, pendingEnd, "whole");
            pendingEnd = -1;
            if (line === undefined) break;
          }
          end = nl;
          line = trimCr(line);
          if (line.length > 0) {
            start = bufStart + nl + 1;
            if (stats) stats.lastLineStart = start;
            return line;
          }
          continue;
        }
        // The rest of this chunk begins a line that started in an older chunk.
        if (end > 0 && pendingEnd === -1) pendingEnd = bufStart + end;
        buf = undefined;
      }
      if (fd < 0 || pos === 0 || bytesRead >= budget) break;
      const want = Math.min(chunkBytes, pos, budget - bytesRead);
      shared ??= alloc(want);
      const chunk = want === shared.length ? shared : shared.subarray(0, want);
      if (!readFully(fd, chunk, pos - want)) break;
      pos -= want;
      bytesRead += want;
      if (stats) {
        stats.bytesRead = bytesRead;
        stats.reachedStart = pos === 0;
      }
      buf = chunk;
      bufStart = pos;
      end = want;
    }
    if (fd >= 0 && pos === 0 && pendingEnd !== -1) {
      // The first line of the file: its start is the file's.
      let head = reread(0, pendingEnd, "whole");
      pendingEnd = -1;
      start = 0;
      if (head !== undefined && head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
        head = head.subarray(3);
        start = 3;
      }
      if (head !== undefined) head = trimCr(head);
      if (head !== undefined && head.length > 0) {
        if (stats) stats.lastLineStart = start;
        return head;
      }
    }
    close();
    return undefined;
  };

  const readAt = (offset: number, length: number): Uint8Array | undefined => {
    if (fd < 0 || !(offset >= 0) || !(length >= 0)) return undefined;
    return reread(offset, offset + length, "scratch");
  };

  return { next, close, lineStart: () => start, readAt };
}

function trimCr(line: Uint8Array): Uint8Array {
  const n = line.length;
  return n > 0 && line[n - 1] === CARRIAGE_RETURN ? line.subarray(0, n - 1) : line;
}

/** Parses one line (bytes or text) into a row: a JSON object, or undefined for anything else. */
export function parseRow(line: Buffer | string): TranscriptRow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(typeof line === "string" ? line : line.toString("utf8"));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  return value as TranscriptRow;
}

/**
 * The UTF-8 bytes of `s` as a Buffer, for `indexOf` on transcript lines. Built with TextEncoder,
 * not `Buffer.from`: Bun compiles `Buffer.from` from source on its first call, which the usual
 * prompt paid for on every run (bench/README.md, "What start-up pays for").
 *
 * @example
 * ```ts
 * const ASSISTANT = needle('"assistant"');
 * if (line.indexOf(ASSISTANT) !== -1) console.log("may be an assistant row");
 * ```
 */
export function needle(s: string): Buffer {
  const bytes = new TextEncoder().encode(s);
  const out = buffers().allocUnsafe(bytes.length);
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

function readFully(fd: number, buf: Uint8Array, position: number): boolean {
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
