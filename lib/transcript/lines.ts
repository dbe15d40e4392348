import { closeSync, constants, fstatSync, openSync, readSync } from "../node/fs.ts";
import { concatBytes } from "../node/concat_bytes.ts";
import type { Buffer } from "node:buffer";
import type { TranscriptRow } from "./transcript_row.ts";

/** Progress of a backward read, shared with the public scan's stats. */
export interface ReverseLinesStats {
  bytesRead: number;
  reachedStart: boolean;
}

/** A file's lines newest first: {@linkcode reverseLines} (bytes) or {@linkcode reverseTextLines} (text). */
export interface ReverseLines<T> {
  /** The next line (older than the last), or undefined when there are no more. */
  next(): T | undefined;
  /** Closes the file; needed only when the caller stops before `next()` gave undefined. */
  close(): void;
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
 * begins at offset 0. Given buffers may share memory with the read chunks, but every chunk is a
 * fresh buffer that is never written again, so a line may be kept and decoded later
 * (`collectEvidenceFromLines` does). Missing, unreadable or non-regular files give no lines.
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
 *     if (line.indexOf(ASSISTANT) !== -1) console.log(parseRow(line)?.uuid);
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
): ReverseLines<Buffer> {
  return rawLines(path, budget, chunkBytes, stats, allocBuffer) as ReverseLines<Buffer>;
}

/**
 * {@linkcode reverseLines} decoded: the same lines as UTF-8 text, read into plain typed arrays.
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

/** {@linkcode reverseLines}, in arrays from `alloc`. */
function rawLines(
  path: string,
  budget: number,
  chunkBytes: number,
  stats: ReverseLinesStats | undefined,
  alloc: (n: number) => Uint8Array,
): ReverseLines<Uint8Array> {
  let fd = -1;
  let pos = 0;
  if (typeof path === "string" && path !== "") {
    try {
      fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
      const st = fstatSync(fd);
      if (st.isFile()) pos = st.size;
    } catch { /* no lines */ }
  }
  let bytesRead = 0;
  // Bytes of the line whose start has not been read yet, in file order.
  let carry: Uint8Array[] = [];
  // The last chunk, and where its lines not yet given end.
  let buf: Uint8Array | undefined;
  let end = 0;

  const close = (): void => {
    if (fd < 0) return;
    try {
      closeSync(fd);
    } catch { /* already closed */ }
    fd = -1;
  };

  const next = (): Uint8Array | undefined => {
    for (;;) {
      if (buf !== undefined) {
        const nl = end > 0 ? buf.lastIndexOf(NEWLINE, end - 1) : -1;
        if (nl !== -1) {
          let line = buf.subarray(nl + 1, end);
          if (carry.length > 0) {
            line = concatBytes([line, ...carry], alloc);
            carry = [];
          }
          end = nl;
          line = trimCr(line);
          if (line.length > 0) return line;
          continue;
        }
        if (end > 0) carry.unshift(end === buf.length ? buf : buf.subarray(0, end));
        buf = undefined;
      }
      if (fd < 0 || pos === 0 || bytesRead >= budget) break;
      const want = Math.min(chunkBytes, pos, budget - bytesRead);
      // A fresh array per chunk: `carry` and the lines given may still point into the last one.
      const chunk = alloc(want);
      if (!readFully(fd, chunk, pos - want)) break;
      pos -= want;
      bytesRead += want;
      if (stats) {
        stats.bytesRead = bytesRead;
        stats.reachedStart = pos === 0;
      }
      buf = chunk;
      end = want;
    }
    if (fd >= 0 && pos === 0 && carry.length > 0) {
      // The first line of the file: its start is the file's.
      let head = carry.length === 1 ? carry[0] : concatBytes(carry, alloc);
      carry = [];
      if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) head = head.subarray(3);
      head = trimCr(head);
      if (head.length > 0) return head;
    }
    close();
    return undefined;
  };

  return { next, close };
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
