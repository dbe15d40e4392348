/**
 * Instructions a command executes in user space (all threads), counted by valgrind's callgrind:
 * the same to about 0.1 million from run to run on this machine, where a hook's wall time moves by
 * 10 %. Kernel work (exec, page faults, system calls) is not in the count, so it ranks our code,
 * not the whole start. Used by `bench/ab.ts --instructions` and the full benchmark's table.
 *
 * Bench tooling: Bun APIs are fine here.
 */

/** Where and how to run the command: its working directory, environment and stdin. */
export interface CountOptions {
  cwd: string;
  env: Record<string, string>;
  stdin: Uint8Array;
  /** Called before each run (the bench puts its sandbox back). */
  restore?: () => void;
  /** Runs; the fewest instructions of them is the count. Default 3. */
  runs?: number;
}

/**
 * The fewest instructions `argv` executed over `runs` runs under `valgrind --tool=callgrind`.
 * Throws when valgrind fails or reports no count.
 *
 * @example
 * ```ts
 * const n = countInstructions(["dist/stop"], { cwd: ws, env, stdin });
 * console.log(`${(n / 1e6).toFixed(2)} million`);
 * ```
 */
export function countInstructions(argv: string[], options: CountOptions): number {
  const counts: number[] = [];
  for (let i = 0; i < (options.runs ?? 3); i++) {
    options.restore?.();
    const r = Bun.spawnSync(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", ...argv], {
      cwd: options.cwd,
      env: options.env,
      stdin: options.stdin,
      stdout: "pipe",
      stderr: "pipe",
    });
    const m = /Collected : (\d+)/.exec(r.stderr.toString());
    if (!m) throw new Error(`valgrind failed (is it installed?): ${r.stderr.toString().slice(0, 200)}`);
    counts.push(Number(m[1]));
  }
  return Math.min(...counts);
}
