import { randomHex } from "../node/random_hex.ts";

/**
 * A new id for one compaction: base-36 milliseconds then 12 random hex digits, so ids sort by
 * time and never collide between sessions. PreCompact makes one and every record of that
 * compaction carries it: the precompact state, the checkpoint, the re-read marker and the
 * delivery record.
 *
 * @example
 * ```ts
 * newCompactionId(new Date()); // "mi8x2k1c-3f9a1c0b7d2e"
 * ```
 */
export function newCompactionId(now: Date): string {
  return `${now.getTime().toString(36)}-${randomHex(6)}`;
}
