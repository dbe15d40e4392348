// The naive reference for the backward transcript scanner: read the whole file, drop a BOM at
// the start, split on `\n`, drop a `\r` before it, JSON.parse each line and keep the objects. A
// half-written last line simply fails to parse. Rows come oldest first.
import type { Buffer } from "node:buffer";

/** One row of the forward parse, with the offset of its first byte and its raw bytes. */
export interface ForwardRow {
  value: object;
  start: number;
  raw: Buffer;
}

/** Parses `bytes` forwards, the slow and obvious way. */
export function forwardParse(bytes: Buffer): ForwardRow[] {
  const out: ForwardRow[] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    let from = start;
    if (start === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) from = 3;
    let to = end;
    if (to > from && bytes[to - 1] === 0x0d) to--;
    const raw = bytes.subarray(from, to);
    try {
      const value: unknown = JSON.parse(raw.toString("utf8"));
      if (value !== null && typeof value === "object" && !Array.isArray(value)) out.push({ value, start, raw });
    } catch { /* skipped like the scanner does */ }
    start = end + 1;
  }
  return out;
}
