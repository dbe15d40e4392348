/** Seeded PRNG (mulberry32) and pickers shared by the generators: same seed, same inputs. */

/** A seeded random source. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** One element of `list`. */
  pick<T>(list: readonly T[]): T;
  /** `n` lowercase hex digits. */
  hex(n: number): string;
  /** A random v4-shaped UUID. */
  uuid(): string;
}

/**
 * A seeded random source (mulberry32).
 *
 * @example
 * ```ts
 * createRandom(1).int(1, 6); // the same number on every runtime
 * ```
 */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number): string => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(next() * 16)];
    return s;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    hex,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
  };
}
