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
 * command runs in every position equally often (A B C, B C A, C A B, ...) and machine drift favours
 * none of them. A rotation keeps each command's predecessor the same in most rounds; that was
 * measured to change nothing here (bench/README.md, "How it measures").
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

/** The per-round ratio of two commands timed in the same rounds, with a confidence interval. */
export interface PairedRatio {
  /** Rounds compared. */
  n: number;
  /** Median of `a[i] / b[i]`. */
  median: number;
  /** Lower and upper end of the interval for that median. */
  lo: number;
  hi: number;
  /**
   * The interval's exact coverage (for example 0.957 with 25 rounds at the 0.95 asked for), lower
   * than asked only when there are too few rounds for any interval to reach it (fewer than 6 at
   * 0.95): then it is the whole range.
   */
  coverage: number;
}

/**
 * The median of the per-round ratios `a[i] / b[i]` (each run of `a` divided by the run of `b` in
 * the same interleaved round, so drift between rounds cancels) and a distribution-free confidence
 * interval for it: the order statistics `r(k)` and `r(n-k+1)` of the sorted ratios, with the
 * largest `k` for which a Binomial(n, 1/2) puts at most `(1 - confidence) / 2` below `k` (the sign
 * test's interval; it assumes only that rounds are independent). `null` when the lists differ in
 * length, are empty, or hold a value that is not a positive finite number.
 *
 * @example
 * ```ts
 * const r = pairedRatio(hookRuns, floorRuns);
 * if (r && r.hi <= 1.3) console.log("within 1.3x the floor, at 95 % confidence");
 * ```
 */
export function pairedRatio(a: readonly number[], b: readonly number[], confidence = 0.95): PairedRatio | null {
  const n = a.length;
  if (n === 0 || b.length !== n) return null;
  const r: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!(a[i] > 0) || !(b[i] > 0) || !Number.isFinite(a[i]) || !Number.isFinite(b[i])) return null;
    r.push(a[i] / b[i]);
  }
  r.sort((x, y) => x - y);
  const tail = (1 - Math.min(Math.max(confidence, 0), 1)) / 2;
  // below[k] = P(X <= k - 1) for X ~ Binomial(n, 1/2), summed in log space (no underflow).
  let logPmf = -n * Math.LN2;
  let below = 0;
  let k = 0;
  while (k < Math.floor((n + 1) / 2)) {
    const next = below + Math.exp(logPmf);
    if (next > tail) break;
    below = next;
    logPmf += Math.log(n - k) - Math.log(k + 1);
    k++;
  }
  const at = Math.max(k, 1);
  return {
    n,
    median: quantile(r, 0.5),
    lo: r[at - 1],
    hi: r[n - at],
    coverage: 1 - 2 * (k === 0 ? Math.exp(-n * Math.LN2) : below),
  };
}
