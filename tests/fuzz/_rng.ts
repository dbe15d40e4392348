// Seeded randomness for the fuzzer: one mulberry32 stream per case, so a case is reproduced from
// (seed, hook, world, case) alone.
import { createRandom } from "../unit/_transcript_gen.ts";

/** A seeded random source with the helpers the generators need. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = createRandom(seed);
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/** Mixes numbers into one 32-bit seed (FNV-1a over their decimal forms). */
export function mixSeed(...parts: (number | string)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join("/")) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
