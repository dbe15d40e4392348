/**
 * Summary statistics of the benchmark: pure functions, no runtime APIs, so the unit tests run them
 * under Bun and Deno.
 */

/** Summary of one command's counted runs on one case. */
export interface Summary {
  /** Counted runs. */
  n: number;
  min: number;
  median: number;
  /** 95th percentile (linear interpolation between closest ranks). */
  p95: number;
  max: number;
  mean: number;
}

/**
 * The `q` quantile (0..1) of `sorted` (ascending), interpolating linearly between closest ranks:
 * the definition numpy calls "linear" (Hyndman and Fan type 7).
 *
 * @example
 * ```ts
 * quantile([1, 2, 3, 4], 0.5); // 2.5
 * ```
 */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/**
 * Min, median, p95, max and mean of a sample (not modified).
 *
 * @example
 * ```ts
 * summarize([3, 1, 2]).median; // 2
 * ```
 */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n,
    min: n ? sorted[0] : NaN,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: n ? sorted[n - 1] : NaN,
    mean: n ? sum / n : NaN,
  };
}

/**
 * The order of the commands in round `round`: the list rotated by the round number, so every
 * command runs in every position equally often (A B C, B C A, C A B, ...) and neither machine drift
 * nor "runs right after the heavy one" favours any of them.
 *
 * @example
 * ```ts
 * roundOrder(["a", "b", "c"], 1); // ["b", "c", "a"]
 * ```
 */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const n = items.length;
  if (n === 0) return [];
  const k = ((round % n) + n) % n;
  return [...items.slice(k), ...items.slice(0, k)];
}

/**
 * `a / b`, or `null` when either is missing or `b` is not positive.
 *
 * @example
 * ```ts
 * ratio(13, 10); // 1.3
 * ```
 */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (!Number.isFinite(a) || !Number.isFinite(b) || b <= 0) return null;
  return a / b;
}
