// The hook fuzzer. Run: `bun tests/fuzz/run.ts [--seed N] [--cases N] [--spawn N] [--hooks a,b]
// [--world-size N] [--world W] [--jobs J] [--dist DIR] [--out tests/fuzz/RESULTS.md] [--verbose]`.
//
// Every case runs one hook on generated, damaged input in a world (see _world.ts: a project
// workspace or an ordinary repository) and checks the properties of _check.ts, that nothing outside
// the state directory, `00-system/.cache/` and `.jerry/` changed, and that it finished in time
// (TIME BOUNDS below). Some cases point the hook at an adversarial transcript (_adversarial.ts:
// shared basenames, huge lines, deep nesting, floods of tasks, todos, prompts and edits). Most cases run in-process through
// handleHook() with the hook's handler: the code path of the binary minus reading stdin and
// writing stdout. `--spawn N` of them per hook run the compiled binary instead (dist/<hook> and
// `dist/rehydrate <hook>` alternately), some while the transcript grows or is truncated.
// Every case is derived from (seed, hook, world, case): a failure prints the command that
// replays its world.
import { Buffer } from "node:buffer";
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { handleHook, type HookHandler } from "../../lib/hook/handle_hook.ts";
import type { HookEventName } from "../../lib/hook/hook_types.ts";
import { HOOK_NAMES } from "../../lib/hook/hook_names.ts";
import { preCompactHook } from "../../lib/events/pre_compact_hook.ts";
import { postCompactHook } from "../../lib/events/post_compact.ts";
import { sessionStartHook } from "../../lib/events/session_start.ts";
import { userPromptSubmitHook } from "../../lib/events/user_prompt_submit.ts";
import { preToolUseHook } from "../../lib/events/pre_tool_use.ts";
import { postToolUseHook } from "../../lib/events/post_tool_use.ts";
import { stopHook } from "../../lib/events/stop.ts";
import { sessionCheckpointHook } from "../../lib/events/session_checkpoint.ts";
import { postModelSwitchHook } from "../../lib/events/post_model_switch.ts";
import { checkOutput } from "./_check.ts";
import { ADVERSARIAL_KINDS, type AdversarialKind } from "./_adversarial.ts";
import { mutateBytes } from "./_mutate.ts";
import { mixSeed, Rng } from "./_rng.ts";
import { makeStdin, STDIN_KINDS, type StdinKind } from "./_stdin.ts";
import {
  allowedWriteDirs,
  createShared,
  createWorld,
  damageWorld,
  destroyWorld,
  diffSnapshots,
  ROOT,
  snapshot,
  type World,
} from "./_world.ts";

// Each handler serves its own event; the fuzzer pairs them by name (HOOK_NAMES) at run time.
export const HANDLERS = {
  "pre-compact": preCompactHook,
  "post-compact": postCompactHook,
  "session-start": sessionStartHook,
  "user-prompt-submit": userPromptSubmitHook,
  "pre-tool-use": preToolUseHook,
  "post-tool-use": postToolUseHook,
  stop: stopHook,
  "session-checkpoint": sessionCheckpointHook,
  "post-model-switch": postModelSwitchHook,
} as Record<string, HookHandler>;

// TIME BOUNDS. A case fails when it uses more CPU time than its bound, or hangs:
// - CPU time (user + system): in-process, the worker's own around handleHook() (nothing else runs
//   in it meanwhile); on the binary, the hook process's, from GNU time (/usr/bin/time; without it,
//   the wall time stands in). An ordinary case (the world's transcripts, damaged inputs): 1 s, the
//   issue's property. A case on an adversarial transcript (up to about 8 MiB of hostile rows, all
//   inside the 8 MiB scan window, so every byte is read): 2 s. Linear work on those inputs takes
//   0.2-0.7 s of CPU (PreCompact, the one hook that parses the whole window); the quadratic
//   detection of the trust-boundary issue's W1 took minutes.
// - Wall time: 15 s for any case, against hangs (a FIFO, a lock). The hooks are registered with
//   timeouts of 10 s (every tool call and prompt) to 60 s (PreCompact); a binary is killed at 20 s.
// CPU time rather than wall time: on the shared 2-core machine of 2026-11-25 (load 10-13) the wall
// time of one case moved 20-fold, and ordinary cases that had taken 0.1-0.2 s took 1-2 s of wall.
const LIMIT_MS = 1000;
const ADVERSARIAL_LIMIT_MS = 2000;
const WALL_LIMIT_MS = 15_000;
const KILL_AFTER_MS = 20_000;
const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
/** Share of cases pointed at an adversarial transcript: in-process and on the binary. */
const ADVERSARIAL_RATE = { inProcess: 0.006, binary: 0.1 };
/** Share of cases before which a new compaction happens (PreCompact, untimed), so delivery runs again. */
const RECOMPACT_RATE = 0.03;

export interface FuzzOptions {
  seed: number;
  hook: string;
  cases: number;
  spawn: number;
  worldSize: number;
  /** Only this world (replay). */
  world?: number;
  verbose?: boolean;
  /** Where the binaries are. Default dist/. */
  dist?: string;
  /**
   * An ordinary case that uses more CPU time than this fails (in-process and binary alike).
   * Default 1,000 ms, the issue's property. The slice in `npm test` runs on shared CI machines and
   * only needs to catch hangs, so it allows more.
   */
  limitMs?: number;
  /** A case on an adversarial transcript that uses more CPU time than this fails. Default 2,000 ms. */
  adversarialLimitMs?: number;
  /** Any case that takes longer than this, wall time, fails (hangs). Default 15,000 ms. */
  wallLimitMs?: number;
}

export interface Failure {
  hook: string;
  world: number;
  case: number;
  mode: "in-process" | "binary";
  kind: string;
  damage: string;
  problems: string[];
  replay: string;
}

export interface FuzzResult {
  hook: string;
  seed: number;
  inProcess: number;
  binary: number;
  binaryMulticall: number;
  binaryWhileTranscriptChanges: number;
  worlds: number;
  damagedFiles: number;
  kinds: Record<string, number>;
  outputs: { silent: number; replied: number };
  failOpen: Record<string, number>;
  maxMs: { inProcess: number; binary: number };
  /** The most CPU time a case used (binary: from GNU time, 10 ms steps). */
  maxCpuMs: { inProcess: number; binary: number };
  /** Worlds by layout. */
  worldKinds: Record<string, number>;
  /** Cases on each adversarial transcript, and the slowest of them. */
  adversarial: Record<string, number>;
  adversarialMaxMs: { inProcess: number; binary: number };
  adversarialMaxCpuMs: { inProcess: number; binary: number };
  /** Replies that carried the everyday layer's `<session-context>` (SessionStart, UserPromptSubmit re-delivery). */
  sessionContext: Record<string, number>;
  /** New compactions made between cases. */
  recompactions: number;
  failures: Failure[];
  failureCount: number;
  seconds: number;
}

/** Runs the cases of one hook; never throws for a hook failure (those are recorded). */
export async function fuzzHook(o: FuzzOptions): Promise<FuzzResult> {
  const started = performance.now();
  const event = HOOK_NAMES[o.hook];
  const handler = HANDLERS[o.hook];
  const result: FuzzResult = {
    hook: o.hook,
    seed: o.seed,
    inProcess: 0,
    binary: 0,
    binaryMulticall: 0,
    binaryWhileTranscriptChanges: 0,
    worlds: 0,
    damagedFiles: 0,
    kinds: {},
    outputs: { silent: 0, replied: 0 },
    failOpen: {},
    maxMs: { inProcess: 0, binary: 0 },
    maxCpuMs: { inProcess: 0, binary: 0 },
    worldKinds: {},
    adversarial: {},
    adversarialMaxMs: { inProcess: 0, binary: 0 },
    adversarialMaxCpuMs: { inProcess: 0, binary: 0 },
    sessionContext: {},
    recompactions: 0,
    failures: [],
    failureCount: 0,
    seconds: 0,
  };
  const shared = createShared();
  const worlds = Math.ceil(o.cases / o.worldSize);
  const stride = o.spawn > 0 ? Math.max(1, Math.floor(o.cases / o.spawn)) : Infinity;
  // Resolved here: the binaries run with the world's project as their working directory.
  const dist = o.dist === undefined ? join(ROOT, "dist") : resolve(o.dist);
  const home = process.cwd();
  try {
    for (let w = 0; w < worlds; w++) {
      if (o.world !== undefined && w !== o.world) continue;
      const wrng = new Rng(mixSeed(o.seed, o.hook, w));
      const world = createWorld(wrng);
      result.worlds++;
      result.worldKinds[world.kind] = (result.worldKinds[world.kind] ?? 0) + 1;
      process.chdir(world.root);
      try {
        await prelude(wrng, world);
        const allowed = allowedWriteDirs(world);
        let before = snapshot(world.root, allowed);
        const demo = readFileSync(world.transcripts.demo);
        const logPath = join(world.state, "debug.log");
        for (let c = 0; c < o.worldSize; c++) {
          const index = w * o.worldSize + c;
          if (index >= o.cases) break;
          const rng = new Rng(mixSeed(o.seed, o.hook, w, c));
          let damage = "";
          if (rng.chance(0.25)) {
            damage = damageWorld(rng, world);
            result.damagedFiles++;
          }
          if (rng.chance(0.15)) {
            writeFileSync(world.transcripts.mutated, mutateBytes(rng, demo));
            damage += " mutated-transcript";
          }
          if (rng.chance(RECOMPACT_RATE)) {
            await compactAgain(rng, world);
            result.recompactions++;
            damage += " compacted-again";
          }
          if (damage) before = snapshot(world.root, allowed);
          const binary = stride !== Infinity && index % stride === 0;
          const adversary: AdversarialKind | null =
            rng.chance(binary ? ADVERSARIAL_RATE.binary : ADVERSARIAL_RATE.inProcess)
              ? rng.pick(ADVERSARIAL_KINDS)
              : null;
          const kind: StdinKind = adversary
            ? rng.pick(["valid", "valid", "valid", "field-values"] as const)
            : rng.pick(STDIN_KINDS);
          const stdin = makeStdin(
            rng,
            event,
            world,
            shared,
            kind,
            adversary ? shared.adversarial[adversary] : undefined,
          );
          // field-values may point at an adversarial transcript too.
          const onAdversarial = adversary ??
            ADVERSARIAL_KINDS.find((k) =>
              Buffer.from(stdin.buffer, stdin.byteOffset, stdin.byteLength).includes(shared.adversarial[k])
            ) ??
            null;
          const kindLabel = onAdversarial ? `adversarial ${onAdversarial}` : kind;
          result.kinds[kindLabel] = (result.kinds[kindLabel] ?? 0) + 1;
          if (onAdversarial) result.adversarial[onAdversarial] = (result.adversarial[onAdversarial] ?? 0) + 1;
          const env: Record<string, string | undefined> = { ...world.env };
          if (rng.chance(0.5)) env.REHYDRATE_DEBUG = "1";
          if (rng.chance(0.1)) delete env.CLAUDE_PROJECT_DIR;
          if (rng.chance(0.15)) {
            env.REHYDRATE_DISPATCH_FILE = join(world.project, "docs", "handler-dispatches", "fix-login.md");
          }
          const logFrom = sizeOf(logPath);
          let problems: string[];
          let ms: number;
          let cpuMs: number;
          let stdout: string;
          let changedTranscript: string | null = null;
          if (binary) {
            const multicall = rng.chance(0.5);
            const changing = rng.chance(0.3) ? rng.pick([world.transcripts.demo, world.transcripts.mutated]) : null;
            const r = await runBinary(dist, o.hook, multicall, stdin, env, world.project, changing, rng, shared.dir);
            result.binary++;
            if (multicall) result.binaryMulticall++;
            if (changing) result.binaryWhileTranscriptChanges++;
            ms = r.ms;
            cpuMs = r.cpuMs ?? r.ms;
            stdout = r.stdout;
            problems = checkOutput(event, r.status, r.stdout, r.stderr);
            if (changing) writeFileSync(changing, demo);
            changedTranscript = changing;
            result.maxMs.binary = Math.max(result.maxMs.binary, ms);
          } else {
            const t0 = performance.now();
            const c0 = process.cpuUsage();
            let outcome;
            try {
              outcome = await handleHook(event, handler, new TextDecoder().decode(stdin), {
                env,
                homeDir: world.home,
                now: new Date(Date.now()),
              });
            } catch (err) {
              outcome = { stdout: "", exitCode: 0 as const, threw: (err as Error)?.stack ?? String(err) };
            }
            ms = performance.now() - t0;
            const c = process.cpuUsage(c0);
            cpuMs = (c.user + c.system) / 1000;
            result.inProcess++;
            stdout = outcome.stdout;
            problems = checkOutput(event, outcome.exitCode, outcome.stdout);
            if ("threw" in outcome) problems.push(`handleHook threw: ${String(outcome.threw).split("\n")[0]}`);
            result.maxMs.inProcess = Math.max(result.maxMs.inProcess, ms);
          }
          if (stdout) result.outputs.replied++;
          else result.outputs.silent++;
          // Only where it is injected: PreCompact's instructions, a deny or a Stop reason may quote a
          // request or task holding the tag, as data.
          if ((event === "SessionStart" || event === "UserPromptSubmit") && stdout.includes("<session-context")) {
            result.sessionContext[world.kind] = (result.sessionContext[world.kind] ?? 0) + 1;
          }
          const mode = binary ? "binary" : "inProcess";
          result.maxCpuMs[mode] = Math.max(result.maxCpuMs[mode], cpuMs);
          const limit = onAdversarial ? o.adversarialLimitMs ?? ADVERSARIAL_LIMIT_MS : o.limitMs ?? LIMIT_MS;
          if (onAdversarial) {
            result.adversarialMaxMs[mode] = Math.max(result.adversarialMaxMs[mode], ms);
            result.adversarialMaxCpuMs[mode] = Math.max(result.adversarialMaxCpuMs[mode], cpuMs);
          }
          if (cpuMs > limit) {
            problems.push(`used ${Math.round(cpuMs)} ms of CPU (bound ${limit} ms; ${Math.round(ms)} ms wall)`);
          }
          if (ms > (o.wallLimitMs ?? WALL_LIMIT_MS)) {
            problems.push(`took ${Math.round(ms)} ms wall (bound ${o.wallLimitMs ?? WALL_LIMIT_MS} ms)`);
          }
          const after = snapshot(world.root, allowed);
          const changed = diffSnapshots(before, after).filter((d) =>
            !(changedTranscript && d.endsWith(` ${changedTranscript}`))
          );
          if (changed.length > 0) {
            problems.push(`wrote outside the state directories: ${changed.slice(0, 3).join(", ")}`);
          }
          before = after;
          for (const line of newLogLines(logPath, logFrom)) {
            const m = /failed open: (.*?)(?: \| {4}at |$)/.exec(line);
            if (m) {
              const key = `${m[1].slice(0, 160)}`;
              result.failOpen[key] = (result.failOpen[key] ?? 0) + 1;
            }
          }
          if (problems.length > 0) {
            result.failureCount++;
            if (o.verbose) {
              console.error(`links now: ${linkedFiles(world).join(", ")}; stdout: ${stdout.slice(0, 3000)}`);
            }
            const f: Failure = {
              hook: o.hook,
              world: w,
              case: c,
              mode: binary ? "binary" : "in-process",
              kind: `${kindLabel}, ${world.kind}`,
              damage: damage.trim(),
              problems,
              replay:
                `bun tests/fuzz/run.ts --seed ${o.seed} --hooks ${o.hook} --cases ${o.cases} --spawn ${o.spawn} --world-size ${o.worldSize} --world ${w} --verbose`,
            };
            if (result.failures.length < 50) result.failures.push(f);
            if (o.verbose) console.error(JSON.stringify(f));
            // REHYDRATE_FUZZ_DUMP=<dir>: the failing case's stdin, to run the hook on it again by hand.
            const dump = process.env.REHYDRATE_FUZZ_DUMP;
            if (dump) writeFileSync(join(dump, `${o.hook}-${w}-${c}.stdin`), stdin);
          }
        }
      } finally {
        process.chdir(home);
        destroyWorld(world);
      }
    }
  } finally {
    spawnSync("rm", ["-rf", shared.dir]);
  }
  result.seconds = Math.round((performance.now() - started) / 100) / 10;
  return result;
}

/**
 * A new compaction between two cases: PreCompact (and sometimes PostCompact) run untimed on the
 * world's session or its hostile one, so SessionStart(compact) and the next prompt deliver again.
 */
async function compactAgain(rng: Rng, world: World): Promise<void> {
  const base = {
    session_id: "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d",
    transcript_path: rng.chance(0.5) ? world.transcripts.demo : world.transcripts.hostile,
    cwd: world.project,
  };
  const steps: [HookEventName, string, Record<string, unknown>][] = [["PreCompact", "pre-compact", {
    trigger: "auto",
  }]];
  if (rng.chance(0.4)) steps.push(["PostCompact", "post-compact", { trigger: "auto", compact_summary: "Summary." }]);
  for (const [event, name, extra] of steps) {
    await handleHook(event, HANDLERS[name], JSON.stringify({ ...base, hook_event_name: event, ...extra }), {
      env: world.env,
      homeDir: world.home,
    });
  }
}

/** Leaves a state behind in most worlds, so the cases meet markers, records and checkpoints. */
async function prelude(rng: Rng, world: World): Promise<void> {
  const base = {
    session_id: "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d",
    transcript_path: world.transcripts.demo,
    cwd: world.project,
  };
  const steps: [HookEventName, string, Record<string, unknown>][] = [];
  if (rng.chance(0.7)) steps.push(["PreCompact", "pre-compact", { trigger: "auto" }]);
  if (rng.chance(0.4)) steps.push(["PostCompact", "post-compact", { trigger: "auto", compact_summary: "Summary." }]);
  if (rng.chance(0.3)) steps.push(["SessionStart", "session-start", { source: "compact" }]);
  for (const [event, name, extra] of steps) {
    await handleHook(event, HANDLERS[name], JSON.stringify({ ...base, hook_event_name: event, ...extra }), {
      env: world.env,
      homeDir: world.home,
    });
  }
}

function runBinary(
  dist: string,
  hook: string,
  multicall: boolean,
  stdin: Uint8Array,
  env: Record<string, string | undefined>,
  cwd: string,
  changing: string | null,
  rng: Rng,
  scratch: string,
): Promise<{ status: number | null; stdout: string; stderr: string; ms: number; cpuMs: number | null }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const argv = multicall ? [join(dist, "rehydrate"), hook] : [join(dist, hook)];
    // Under GNU time, which reports the hook's own CPU time (to a file outside the world) and
    // exits with its status; in a process group of its own, so the killer reaches the hook too.
    const timeFile = join(scratch, "time.txt");
    const [cmd, ...args] = GNU_TIME ? [GNU_TIME, "-f", "%U %S", "-o", timeFile, ...argv] : argv;
    const child = spawn(cmd, args, { cwd, env: env as NodeJS.ProcessEnv, detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, KILL_AFTER_MS);
    let timer: ReturnType<typeof setInterval> | undefined;
    if (changing) {
      // Grow and truncate the transcript while the hook reads it.
      const row = Buffer.from(
        JSON.stringify({
          type: "assistant",
          message: {
            role: "assistant",
            content: [{ type: "text", text: "x".repeat(rng.range(10, 5000)) }],
            usage: { input_tokens: 5 },
          },
        }) + "\n",
      );
      timer = setInterval(() => {
        try {
          if (rng.chance(0.3)) truncateSync(changing, rng.int(statSync(changing).size + 1));
          else for (let i = 0; i < 20; i++) appendFileSync(changing, row);
        } catch { /* racing the hook is the point */ }
      }, 1);
    }
    child.on("close", (status) => {
      clearTimeout(killer);
      if (timer) clearInterval(timer);
      let cpuMs: number | null = null;
      if (GNU_TIME) {
        try {
          const last = readFileSync(timeFile, "utf8").trim().split("\n").pop() ?? "";
          const [user, sys] = last.split(" ").map(Number);
          if (Number.isFinite(user) && Number.isFinite(sys)) cpuMs = (user + sys) * 1000;
        } catch { /* no report: the wall time stands in */ }
      }
      resolve({
        status,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        ms: performance.now() - t0,
        cpuMs,
      });
    });
    child.stdin.on("error", () => {/* the hook may exit before reading everything */});
    child.stdin.end(stdin);
  });
}

function linkedFiles(world: World): string[] {
  const out: string[] = [];
  for (const rel of world.mutable) {
    const st = lstatSync(join(world.project, rel), { throwIfNoEntry: false });
    if (st && (st.isSymbolicLink() || st.nlink > 1 || !st.isFile())) {
      out.push(`${rel} (${st.isSymbolicLink() ? "symlink" : st.nlink > 1 ? "hard link" : "special"})`);
    }
  }
  return out;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function newLogLines(path: string, from: number): string[] {
  const size = sizeOf(path);
  if (size <= from) return [];
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(size - from);
    readSync(fd, buf, 0, buf.length, from);
    return buf.toString("utf8").split("\n");
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// Command line: the parent runs one worker process per hook (`--jobs` at a time) and merges.

interface Args {
  seed: number;
  cases: number;
  spawn: number;
  hooks: string[];
  worldSize: number;
  world?: number;
  jobs: number;
  dist?: string;
  out?: string;
  verbose: boolean;
  worker: boolean;
}

function parseArgs(argv: string[]): Args {
  const a: Args = {
    seed: Date.now() % 1_000_000_007,
    cases: 2000,
    spawn: 40,
    hooks: Object.keys(HANDLERS),
    worldSize: 250,
    jobs: 2,
    verbose: false,
    worker: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === "--seed") a.seed = Number(v());
    else if (k === "--cases") a.cases = Number(v());
    else if (k === "--spawn") a.spawn = Number(v());
    else if (k === "--hooks") a.hooks = v().split(",");
    else if (k === "--world-size") a.worldSize = Number(v());
    else if (k === "--world") a.world = Number(v());
    else if (k === "--jobs") a.jobs = Number(v());
    else if (k === "--out") a.out = v();
    else if (k === "--dist") a.dist = v();
    else if (k === "--verbose") a.verbose = true;
    else if (k === "--worker") a.worker = true;
    else throw new Error(`unknown option ${k}`);
  }
  for (const h of a.hooks) if (!HANDLERS[h]) throw new Error(`unknown hook ${h}`);
  return a;
}

async function main(): Promise<void> {
  const a = parseArgs(process.argv.slice(2));
  if (a.worker) {
    const r = await fuzzHook({
      seed: a.seed,
      hook: a.hooks[0],
      cases: a.cases,
      spawn: a.spawn,
      worldSize: a.worldSize,
      world: a.world,
      verbose: a.verbose,
      dist: a.dist,
    });
    process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
    return;
  }
  if (a.spawn > 0) {
    for (const b of ["rehydrate", ...a.hooks]) {
      if (!existsSync(join(a.dist ?? join(ROOT, "dist"), b))) {
        throw new Error(
          `${a.dist ?? "dist"}/${b} is missing: run bun build.ts${a.dist ? ` --outdir ${a.dist}` : ""} first`,
        );
      }
    }
  }
  console.log(
    `rehydrate fuzz: seed ${a.seed}, ${a.cases} cases per hook (${a.spawn} on the binaries), hooks ${
      a.hooks.join(", ")
    }`,
  );
  const results: FuzzResult[] = [];
  const queue = [...a.hooks];
  const started = Date.now();
  const workers = Array.from({ length: Math.max(1, a.jobs) }, async () => {
    for (let hook = queue.shift(); hook !== undefined; hook = queue.shift()) {
      const args = [
        import.meta.filename!,
        "--worker",
        "--seed",
        String(a.seed),
        "--cases",
        String(a.cases),
        "--spawn",
        String(a.spawn),
        "--hooks",
        hook,
        "--world-size",
        String(a.worldSize),
      ];
      if (a.world !== undefined) args.push("--world", String(a.world));
      if (a.dist !== undefined) args.push("--dist", a.dist);
      if (a.verbose) args.push("--verbose");
      const out = await new Promise<string>((resolve) => {
        const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
        let text = "";
        child.stdout.on("data", (d) => (text += d));
        child.on("close", () => resolve(text));
      });
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (!line) {
        console.log(`${hook}: the worker died\n${out.slice(-2000)}`);
        process.exitCode = 1;
        continue;
      }
      const r = JSON.parse(line.slice(7)) as FuzzResult;
      results.push(r);
      // Written after every hook, so a run cut short still leaves what it found.
      if (a.out && results.length < a.hooks.length) {
        writeFileSync(a.out, report(a, results, Math.round((Date.now() - started) / 1000)));
      }
      console.log(
        `${hook.padEnd(19)} ${String(r.inProcess).padStart(7)} in-process  ${String(r.binary).padStart(5)} binary  ${
          String(r.failureCount).padStart(4)
        } failures  max ${Math.round(r.maxMs.inProcess)}/${Math.round(r.maxMs.binary)} ms wall, ${
          Math.round(r.maxCpuMs.inProcess)
        }/${Math.round(r.maxCpuMs.binary)} ms CPU  ${r.seconds} s`,
      );
      for (const f of r.failures.slice(0, 5)) {
        console.log(
          `  FAIL ${f.mode} world ${f.world} case ${f.case} (${f.kind}${f.damage ? `, ${f.damage}` : ""}): ${
            f.problems.join("; ")
          }\n    replay: ${f.replay}`,
        );
      }
    }
  });
  await Promise.all(workers);
  const total = results.reduce((n, r) => n + r.failureCount, 0);
  for (const stray of [".jerry", "00-system", "projects"]) {
    if (existsSync(join(ROOT, stray))) console.log(`WARNING: ${stray} appeared in the repository`);
  }
  console.log(
    `${total === 0 ? "OK" : "FAILED"}: ${
      results.reduce((n, r) => n + r.inProcess + r.binary, 0)
    } cases, ${total} failures, ${Math.round((Date.now() - started) / 1000)} s (seed ${a.seed})`,
  );
  if (a.out) writeFileSync(a.out, report(a, results, Math.round((Date.now() - started) / 1000)));
  if (total > 0) process.exitCode = 1;
}

function report(a: Args, results: FuzzResult[], seconds: number): string {
  results.sort((x, y) => a.hooks.indexOf(x.hook) - a.hooks.indexOf(y.hook));
  const sum = (f: (r: FuzzResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const rows = results.map((r) =>
    `| ${r.hook} | ${
      r.inProcess.toLocaleString("en")
    } | ${r.binary} (${r.binaryMulticall} via \`rehydrate ${r.hook}\`, ${r.binaryWhileTranscriptChanges} while the transcript changed) | ${
      r.damagedFiles.toLocaleString("en")
    } | ${r.outputs.replied.toLocaleString("en")} | ${Math.round(r.maxMs.inProcess)} / ${
      Math.round(r.maxMs.binary)
    } | ${Math.round(r.maxCpuMs.inProcess)} / ${Math.round(r.maxCpuMs.binary)} | ${r.failureCount} |`
  );
  const kinds: Record<string, number> = {};
  const failOpen: Record<string, number> = {};
  const worldKinds: Record<string, number> = {};
  for (const r of results) {
    for (const [k, n] of Object.entries(r.kinds)) kinds[k] = (kinds[k] ?? 0) + n;
    for (const [k, n] of Object.entries(r.worldKinds ?? {})) worldKinds[k] = (worldKinds[k] ?? 0) + n;
    for (const [k, n] of Object.entries(r.failOpen)) {
      failOpen[`${r.hook}: ${k}`] = (failOpen[`${r.hook}: ${k}`] ?? 0) + n;
    }
  }
  const failures = results.flatMap((r) => r.failures);
  const partial = results.length < a.hooks.length
    ? `\n**Partial: ${results.length} of ${a.hooks.length} hooks finished so far (${
      results.map((r) => r.hook).join(", ")
    }).**\n`
    : "";
  const advRows = results.map((r) =>
    `| ${r.hook} | ${ADVERSARIAL_KINDS.map((k) => (r.adversarial[k] ?? 0).toLocaleString("en")).join(" | ")} | ${
      Math.round(r.adversarialMaxCpuMs.inProcess)
    } / ${Math.round(r.adversarialMaxCpuMs.binary)} (wall ${Math.round(r.adversarialMaxMs.inProcess)} / ${
      Math.round(r.adversarialMaxMs.binary)
    }) | ${(r.sessionContext.repo ?? 0).toLocaleString("en")} / ${
      (r.sessionContext.workspace ?? 0).toLocaleString("en")
    } | ${r.recompactions.toLocaleString("en")} |`
  );
  return `# Fuzzing results

Command: \`bun tests/fuzz/run.ts --seed ${a.seed} --cases ${a.cases} --spawn ${a.spawn} --world-size ${a.worldSize} --jobs ${a.jobs}${
    a.dist ? ` --dist ${a.dist}` : ""
  } --out tests/fuzz/RESULTS.md\`
(${seconds} s on ${process.platform}/${process.arch}, Bun ${process.versions.bun ?? "?"}; load average at the end ${
    loadavg().map((l) => l.toFixed(1)).join(" ")
  } on ${cpus().length} cores).

**${sum((r) => r.inProcess + r.binary).toLocaleString("en")} cases, ${sum((r) => r.failureCount)} failures.**
${partial}
What ran where:
- **in-process**: \`handleHook(event, handler, stdin, { env })\` from \`lib/hook/handle_hook.ts\` with the hook's
  handler from \`lib/*_hook.ts\`: the binary's code path minus \`readStdin()\` and the stdout write
  (stdin bytes are decoded with \`TextDecoder\` exactly as \`readStdin()\` does);
- **binary**: the compiled \`dist/<hook>\` or \`dist/rehydrate <hook>\`, spawned with the stdin bytes, in
  the workspace as its working directory; some while another process appends rows to the transcript
  and truncates it every millisecond.

Per case, checked: exit status 0 (no hook ever exits 2: blocks are JSON decisions), stdout empty or
one JSON object of the event's shape (PreCompact: plain text, never JSON), injected XML well-formed
with at most one of each top-level element, no stack trace on stdout or stderr, no content of a
file outside the workspace in the output (a canary; \`.git/HEAD\` linked to an outside \`HEAD\` naming
the canary as its branch too), no outside file that the transcript only mentioned named in the output
(a second canary, a file name), our elements \`<session-context>\`, \`<nexus-context>\` and
\`<compaction-alert>\` each at most once and well-formed, finished within its time bound, and no entry
created, changed or removed anywhere in the world outside the state directory, \`00-system/.cache/\`
and \`.jerry/\`.

Time bounds: CPU time (user + system; in-process the worker's own around \`handleHook()\`, on the binary
the hook process's from GNU time${GNU_TIME ? "" : " (not found here: wall time stood in)"}) of ${
    LIMIT_MS / 1000
  } s for an ordinary case (the issue's property)
and ${
    ADVERSARIAL_LIMIT_MS / 1000
  } s for a case on an adversarial transcript (up to about 8 MiB of hostile rows, inside the 8 MiB
scan window, so all of it is read); and ${WALL_LIMIT_MS / 1000} s of wall time for any case, against hangs (the hooks'
registered timeouts are 10-60 s). CPU time, not wall time, because the machine is shared: at load 10-13 on
2 cores the wall time of one case moved 20-fold.

Worlds (${a.worldSize} cases each): ${
    Object.entries(worldKinds).sort().map(([k, n]) => `${k} ${n.toLocaleString("en")}`).join(", ")
  }. A *workspace* world is a fresh copy of examples/workspace with the orchestration runs and dispatch
files of tests/fixtures; a *repo* world is an ordinary git repository (examples/everyday's files,
\`.git/HEAD\` on a branch, \`reread.enforce\` and the \`session\` keys varied; its session is
examples/demo_transcript.ts's everyday one, with TaskCreate/TaskUpdate, typed requests and an edited
file), where only the everyday layer speaks. Each world also has a hostile session: typed requests, task
subjects, todos and edited paths carrying \`</session-context>\`, \`SYSTEM OVERRIDE\`, \`../.npmrc\`,
\`~/.ssh/id_rsa\` and markup. Before a case, with probability ${RECOMPACT_RATE} a new compaction runs (PreCompact,
untimed), so SessionStart(compact) and UserPromptSubmit deliver again; with probability 0.25 a workspace or state
file is damaged (byte mutations, emptied, replaced by a link to /dev/zero or /dev/urandom, a FIFO,
a directory, a 1-3 MB file, a symbolic or hard link to a file outside the workspace, a dangling
link, a heading and a status line each followed by 100,000 spaces), and with probability 0.15 the transcript is a byte-mutated copy. Transcripts also include a
generated messy one (BOM, CRLF, blank, invalid and cut lines), one of wrong row shapes, a CRLF copy,
a 50 MB single line, a FIFO, /dev/zero, /dev/urandom, a directory and missing paths.

Adversarial transcripts (tests/fuzz/_adversarial.ts; ${ADVERSARIAL_RATE.inProcess * 100} % of in-process cases, ${
    ADVERSARIAL_RATE.binary * 100
  } % of binary
cases, and wherever a damaged field points at one): *shared-basenames* (60,000 mentions of
\`/dNNNNN/f.c dNNNNN/f.c\` in one assistant text, then spread over 600 rows and a Grep result: the
trust-boundary issue's W1), *huge-lines* (a 5 MB Read result and a 3.5 MB assistant text, one line
each), *deep-nesting* (100,000 nested arrays as a row's content, a tool call's input and a
toolUseResult; 50,000 nested objects), *task-flood* (3,500 TaskCreate and 3,500 TaskUpdate calls),
*todo-flood* (one TodoWrite of 20,000 todos, 300 more), *prompt-flood* (25,000 typed prompts),
*edit-flood* (6,000 Edit calls, a file-history snapshot of 12,000 files), *unclosed-tags* (ten
slash-command rows of 25,000 unclosed \`<command-args>\` each, a \`<command-name>\` followed by 500,000
spaces: issue #36's N3), *command-flood* (4,000 Bash check commands with failing results, 2,000
queued messages, a plan approval of 1 MB, a bare reply after a 1 MB assistant text: issue #35's
parsing).

| hook | ${
    ADVERSARIAL_KINDS.join(" | ")
  } | max CPU ms on them (in-process / binary) | replies with \`<session-context>\` (repo / workspace worlds) | new compactions |
|---|${ADVERSARIAL_KINDS.map(() => "---:").join("|")}|---:|---:|---:|
${advRows.join("\n")}

| hook | in-process | binary | files damaged | replies | max ms wall (in-process / binary) | max ms CPU (in-process / binary) | failures |
|---|---:|---|---:|---:|---:|---:|---:|
${rows.join("\n")}

Stdin kinds (all hooks): ${Object.entries(kinds).sort().map(([k, n]) => `${k} ${n.toLocaleString("en")}`).join(", ")}.

Exceptions caught by the fail-open guards (logged, the hook went on; not property failures):
${
    Object.keys(failOpen).length === 0
      ? "none."
      : Object.entries(failOpen).sort((x, y) => y[1] - x[1]).map(([k, n]) => `- ${n}× ${k.replaceAll("|", "\\|")}`)
        .join("\n")
  }

${
    failures.length === 0
      ? "No failures."
      : `Failures (first ${failures.length}):\n${
        failures.map((f) =>
          `- ${f.hook} ${f.mode} world ${f.world} case ${f.case} (${f.kind}${f.damage ? `, ${f.damage}` : ""}): ${
            f.problems.join("; ")
          }`
        ).join("\n")
      }`
  }
`;
}

if (import.meta.main) await main();
