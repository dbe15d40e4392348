#!/usr/bin/env bun
/**
 * A/B timing for development: one benchmark case, the floor and any binaries you name, in the
 * bench's sandbox (the same state, restored before every run), interleaved and rotated. Use it to
 * decide whether a change is worth keeping before running the full benchmark.
 *
 *   bun bench/ab.ts <case> <MB> [<binary or directory> ...] [--runs N]
 *   bun bench/ab.ts user-prompt-submit@quiet 1 /tmp/before /tmp/after --runs 61
 *   bun bench/ab.ts stop 1 --phases              where the time goes: start-up (exec to the first
 *                                                read of stdin) and the rest, via strace
 *   bun bench/ab.ts stop 1 --jit                 how many functions JavaScriptCore's JIT compiled in
 *                                                one run of each command (baseline and DFG)
 *   bun bench/ab.ts stop 1 --instructions        instructions each command executes in user space (all
 *                                                threads), counted by valgrind's callgrind: the same
 *                                                to about 0.1 million run to run, where the wall time
 *                                                of a hook moves by 10 %; half a nanosecond each here
 *   bun bench/ab.ts stop 1 dist --env BUN_JSC_useJIT=0
 *                                                the named binaries run with these variables (and
 *                                                the floor once more with them)
 *   bun bench/ab.ts stop 1 /tmp/other --multicall  also `rehydrate <hook>` (the one binary most users
 *                                                install), and the named directories' `rehydrate`
 *   bun bench/ab.ts stop 1 --perf                what the kernel counts for each command (perf stat:
 *                                                task-clock, page faults and the major ones among
 *                                                them, context switches), medians
 *                                                of --runs runs: the part of a start --instructions
 *                                                does not see (exec, mapping the binary, faults)
 *   bun bench/ab.ts pre-compact 1 /tmp/base --bin /tmp/mine  the current hooks and the floor from /tmp/mine
 *   bun bench/ab.ts user-prompt-submit@quiet 1 dist --remove projects
 *                                                the workspace without this path (another layout)
 *
 * A directory means "the case's binary in it" (e.g. the outdir of `bun build.ts --outdir DIR`); the
 * floor and the current hooks (the `rehydrate` column) are always measured. `<MB>` is a generated
 * transcript size (generated on first use, like the bench). Medians and ratios to the floor are
 * printed; nothing is written to bench/results. Before timing, every binary is dropped from the
 * page cache and loaded again by the warm-up runs, as in the bench (`evictFromPageCache`): a freshly
 * written copy of a binary runs about 1.5 ms faster here than the same file read back from disk, so
 * without it a binary built a minute ago beat one built an hour ago. `--keep-cache` skips that.
 *
 * Bench tooling: Bun APIs are fine here.
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { HOOK_CASES } from "./gen/inputs.ts";
import { pairedRatio, roundOrder, summarize } from "./stats.ts";
import { countInstructions } from "./instructions.ts";
import {
  afterCompaction,
  buildBinaries,
  evictFromPageCache,
  pristineWorkspace,
  sandboxEnv,
  transcript,
  WS,
} from "./run.ts";

function main(): void {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    allowPositionals: true,
    options: {
      runs: { type: "string", default: "41" },
      phases: { type: "boolean", default: false },
      jit: { type: "boolean", default: false },
      instructions: { type: "boolean", default: false },
      perf: { type: "boolean", default: false },
      env: { type: "string", multiple: true, default: [] },
      remove: { type: "string", multiple: true, default: [] },
      multicall: { type: "boolean", default: false },
      "keep-cache": { type: "boolean", default: false },
      bin: { type: "string" },
    },
  });
  const [caseId, mbText, ...others] = positionals;
  const hook = HOOK_CASES.find((h) => h.id === caseId);
  const mb = Number(mbText);
  if (!hook || !(mb > 0)) {
    console.error(
      `usage: bun bench/ab.ts <case> <MB> [binary|dir ...]; cases: ${HOOK_CASES.map((h) => h.id).join(", ")}`,
    );
    process.exit(2);
  }
  const runs = Math.max(1, Number(values.runs));
  // --bin DIR: the current hooks and the floor from DIR (`bun build.ts --outdir DIR` plus a floor built
  // as bench/repo.ts builds it) instead of the bench's cache build.
  const bins = values.bin ? { dir: resolve(values.bin) } : buildBinaries(false);
  const env = sandboxEnv();
  const { enc, restoreFor } = afterCompaction(pristineWorkspace(), bins.dir, transcript(mb).path, env);
  const restoreCase = restoreFor(hook);
  const restore = (): void => {
    restoreCase();
    for (const p of values.remove!) rmSync(join(WS, p), { recursive: true, force: true });
  };
  const stdin = enc(hook.id);
  const extraEnv: Record<string, string> = {};
  for (const kv of values.env!) {
    const at = kv.indexOf("=");
    if (at <= 0) throw new Error(`--env wants KEY=VALUE, got "${kv}"`);
    extraEnv[kv.slice(0, at)] = kv.slice(at + 1);
  }
  const label = Object.keys(extraEnv).length ? ` (${values.env!.join(" ")})` : "";
  const commands = [
    { id: "floor", path: join(bins.dir, "floor"), env },
    // With --env the floor is measured with the variables too: what they change in the runtime
    // itself is not the hook's doing.
    ...(label ? [{ id: `floor${label}`, path: join(bins.dir, "floor"), env: { ...env, ...extraEnv } }] : []),
    { id: "rehydrate", path: join(bins.dir, hook.binary), env },
    ...(values.multicall ? [{ id: "multicall", path: join(bins.dir, "rehydrate"), args: [hook.binary], env }] : []),
    ...others.map((o) => ({
      id: o + (values.multicall ? " (multicall)" : "") + label,
      path: statSync(o).isDirectory() ? join(resolve(o), values.multicall ? "rehydrate" : hook.binary) : resolve(o),
      args: values.multicall ? [hook.binary] : [],
      env: { ...env, ...extraEnv },
    })),
  ];
  const spawn = (argv: string[], e = env) =>
    Bun.spawnSync(argv, { cwd: WS, env: e, stdin, stdout: "pipe", stderr: "pipe" });

  if (values.jit) {
    console.log(`${hook.id} on ${mb} MB: functions JavaScriptCore compiled in one run`);
    for (const c of commands) {
      restore();
      const r = spawn([c.path, ...(c.args ?? [])], {
        ...c.env,
        BUN_JSC_reportBaselineCompileTimes: "1",
        BUN_JSC_reportDFGCompileTimes: "1",
      });
      const lines = r.stderr.toString().split("\n").filter((l) => l.startsWith("Optimized"));
      const dfg = lines.filter((l) => / using DFG /.test(l)).length;
      console.log(`${c.id.padEnd(40)} baseline ${lines.length - dfg}, DFG ${dfg}`);
    }
    return;
  }

  if (values.instructions) {
    console.log(`${hook.id} on ${mb} MB: instructions executed (valgrind --tool=callgrind), fewest of 3 runs`);
    let floorCount = 0;
    for (const c of commands) {
      const n = countInstructions([c.path, ...(c.args ?? [])], { cwd: WS, env: c.env, stdin, restore });
      if (c.id === "floor") floorCount = n;
      console.log(
        `${c.id.padEnd(40)} ${(n / 1e6).toFixed(2)}M, ${((n - floorCount) / 1e6).toFixed(2)}M more than the floor`,
      );
    }
    return;
  }

  if (values.perf) {
    const events = ["task-clock", "page-faults", "major-faults", "context-switches"];
    const counts = new Map(commands.map((c) => [c.id, events.map(() => [] as number[])]));
    for (let round = 0; round < runs; round++) {
      for (const c of roundOrder(commands, round)) {
        restore();
        const r = spawn(["perf", "stat", "-x,", "-e", events.join(","), c.path, ...(c.args ?? [])], c.env);
        const lines = r.stderr.toString().split("\n");
        events.forEach((e, i) => {
          const line = lines.find((l) => l.split(",")[2] === e);
          if (line === undefined) {
            throw new Error(`perf stat failed (is perf installed?): ${r.stderr.toString().slice(0, 200)}`);
          }
          counts.get(c.id)![i]!.push(Number(line.split(",")[0]));
        });
      }
    }
    console.log(`${hook.id} on ${mb} MB under perf stat, ${runs} runs, medians:`);
    for (const c of commands) {
      const [clock, faults, major, switches] = counts.get(c.id)!.map((v) => summarize(v).median);
      console.log(
        `${c.id.padEnd(40)} task-clock ${clock!.toFixed(2)} ms, page faults ${faults!.toFixed(0)} (major ${
          major!.toFixed(0)
        }), context switches ${switches!.toFixed(0)}`,
      );
    }
    return;
  }

  if (values.phases) {
    const trace = join(bins.dir, "..", `phases-${process.pid}.txt`);
    const at = (lines: string[], re: RegExp): number => Number(lines.find((l) => re.test(l))?.split(/\s+/)[1]) * 1000;
    const phases = new Map(commands.map((c) => [c.id, { start: [] as number[], rest: [] as number[] }]));
    for (let round = 0; round < runs; round++) {
      for (const c of roundOrder(commands, round)) {
        restore();
        const r = spawn([
          "strace",
          "--seccomp-bpf",
          "-f",
          "-ttt",
          "-e",
          "trace=execve,read,exit_group",
          "-o",
          trace,
          c.path,
          ...(c.args ?? []),
        ], c.env);
        if (r.exitCode === null || r.exitCode > 2) {
          throw new Error(`strace failed: ${r.stderr.toString().slice(0, 200)}`);
        }
        const lines = readFileSync(trace, "utf8").split("\n");
        const exec = at(lines, /execve\(/), stdinRead = at(lines, / read\(0,/), exit = at(lines, /exit_group/);
        phases.get(c.id)!.start.push(stdinRead - exec);
        phases.get(c.id)!.rest.push(exit - stdinRead);
      }
    }
    rmSync(trace, { force: true });
    console.log(
      `${hook.id} on ${mb} MB under strace (slower than without; compare the columns), ${runs} runs, medians:`,
    );
    for (const c of commands) {
      const p = phases.get(c.id)!;
      console.log(
        `${c.id.padEnd(40)} start-up ${summarize(p.start).median.toFixed(2)} ms, then ${
          summarize(p.rest).median.toFixed(2)
        } ms`,
      );
    }
    return;
  }

  if (!values["keep-cache"]) evictFromPageCache(commands.map((c) => c.path));
  const wall = new Map(commands.map((c) => [c.id, [] as number[]]));
  for (let round = -3; round < runs; round++) {
    for (const c of roundOrder(commands, round + 3)) {
      restore();
      const t0 = performance.now();
      spawn([c.path, ...(c.args ?? [])], c.env);
      if (round >= 0) wall.get(c.id)!.push(performance.now() - t0);
    }
  }
  const floor = summarize(wall.get("floor")!).median;
  console.log(
    `${hook.id} on ${mb} MB, ${runs} runs each, interleaved; per round: each run / the floor's (or rehydrate's) run in the same round, median [95 % interval]:`,
  );
  const per = (a: string, b: string): string => {
    const r = pairedRatio(wall.get(a)!, wall.get(b)!);
    return r ? `${r.median.toFixed(3)} [${r.lo.toFixed(3)}, ${r.hi.toFixed(3)}]` : "–";
  };
  for (const c of commands) {
    const s = summarize(wall.get(c.id)!);
    const vsOurs = c.id !== "floor" && c.id !== "rehydrate" ? `  per round vs rehydrate ${per(c.id, "rehydrate")}` : "";
    const vsFloor = c.id === "floor" ? "" : `  per round ${per(c.id, "floor")}`;
    console.log(
      `${c.id.padEnd(40)} median ${s.median.toFixed(2)} ms  p95 ${s.p95.toFixed(2)} ms  ${
        (s.median / floor).toFixed(3)
      }x the floor${vsFloor}${vsOurs}`,
    );
  }
}

if (import.meta.main) main();
