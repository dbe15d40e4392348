/**
 * What the transcript generators share (`transcript.ts` for a workspace session, `repo_transcript.ts`
 * for an ordinary repository): the rows' envelope as Claude Code 2.1.197 writes it, chained by
 * `parentUuid` and dated forwards, the usage block, the line counters, and the streaming writer.
 *
 * @module
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Random } from "./random.ts";

/** The fixed fields of every row, and the clock's start. */
export interface RowBase {
  cwd: string;
  sessionId: string;
  gitBranch: string;
  /** Epoch milliseconds of the first row (each row comes 20 ms to 4 s after the one before). */
  start: number;
}

/** Builds the rows of one transcript; its counters and the chain are the generator's to read and reset. */
export interface RowFactory {
  /** `uuid` of the last main-chain row (the next row's `parentUuid`); null after a compaction. */
  parent: string | null;
  /** Characters written so far. */
  bytes: number;
  /** Characters written since the last compaction. */
  sinceCompaction: number;
  /** `row` as a JSONL line, counted. */
  line(row: unknown): string;
  /** A row of `type` with `extra` in Claude Code's envelope; a sidechain row does not move the chain. */
  envelope(type: string, extra: Record<string, unknown>, sidechain?: boolean): Record<string, unknown>;
}

/**
 * A {@linkcode RowFactory} drawing from `rnd` (two draws per row: the time step, then the uuid).
 *
 * @example
 * ```ts
 * const rows = rowFactory(createRandom(1), { cwd: "/r", sessionId: "s", gitBranch: "main", start: Date.UTC(2026, 10, 3) });
 * const text = rows.line(rows.envelope("user", { message: { role: "user", content: "hi" } }));
 * ```
 */
export function rowFactory(rnd: Random, base: RowBase): RowFactory {
  let time = base.start;
  const rows: RowFactory = {
    parent: null,
    bytes: 0,
    sinceCompaction: 0,
    line(row) {
      const text = JSON.stringify(row) + "\n";
      rows.bytes += text.length;
      rows.sinceCompaction += text.length;
      return text;
    },
    envelope(type, extra, sidechain = false) {
      time += rnd.int(20, 4000);
      const uuid = rnd.uuid();
      const row = {
        parentUuid: rows.parent,
        isSidechain: sidechain,
        userType: "external",
        cwd: base.cwd,
        sessionId: base.sessionId,
        version: "2.1.197",
        gitBranch: base.gitBranch,
        type,
        ...extra,
        uuid,
        timestamp: new Date(time).toISOString(),
      };
      if (!sidechain) rows.parent = uuid;
      return row;
    },
  };
  return rows;
}

/**
 * An assistant row's `usage` block (the 1-hour cache, as Claude Code's requests use it).
 *
 * @example
 * ```ts
 * usage(3, 2_000, 142_000, 311).cache_read_input_tokens; // 142000
 * ```
 */
export function usage(input: number, creation: number, read: number, output: number) {
  return {
    input_tokens: input,
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: creation },
    output_tokens: output,
    service_tier: "standard",
  };
}

/**
 * Streams `pieces` to `path` in ~4 MB writes; returns the characters written.
 *
 * @example
 * ```ts
 * writeStream("/tmp/t.jsonl", transcriptLines({ targetBytes: 10e6, workspace: "/w", sessionId: "s" }));
 * ```
 */
export function writeStream(path: string, pieces: Iterable<string>): number {
  const fd = openSync(path, "w");
  let written = 0;
  let parts: string[] = [];
  let size = 0;
  try {
    for (const piece of pieces) {
      parts.push(piece);
      size += piece.length;
      if (size >= 4 << 20) {
        written += writeSync(fd, parts.join(""));
        parts = [];
        size = 0;
      }
    }
    if (parts.length > 0) written += writeSync(fd, parts.join(""));
  } finally {
    closeSync(fd);
  }
  return written;
}
