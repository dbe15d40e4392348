#!/usr/bin/env bun
/**
 * The latency benchmark (issue 6). Times whole processes the way Claude Code runs a hook: spawn,
 * write the hook JSON to stdin, close it, read stdout to EOF. Every case (hook x transcript) runs
 * all compared commands interleaved, rotating the order every round (A B C, B C A, ...), after
 * warm-up rounds; before every run the sandbox (workspace, state directory, HOME) is put back to
 * the state right after a compaction, so every run does the same work.
 *
 *   bun bench/run.ts                      full run: 1, 10, 100, 200, 500 MB + real transcripts; writes
 *                                         bench/results/latest.{json,md} and latency.svg
 *   bun bench/run.ts --quick              under a minute: 1 and 10 MB, 5 runs, without the columns that
 *                                         run the hooks from source (add --source); writes results/quick.*
 *   --sizes 1,10,100,200,500              generated transcript sizes in MB (1 MB = 10^6 bytes)
 *   --hooks pre-compact,stop              only these cases (ids as in the tables)
 *   --runs N  --warmup N  --rss-runs N    counted runs, warm-up rounds, peak-RSS runs per command
 *   --no-peers --no-source --no-bytecode --no-real   --source (quick mode: with the source columns)
 *   --no-instructions  --instructions   leave out (full run) or add (quick run) the instruction
 *                                         counts: floor, hook binary and one binary under valgrind's
 *                                         callgrind on 200 MB (else the largest generated size)
 *   --out NAME                            results/NAME.{json,md,svg}
 *
 * Commands per case: floor (a compiled binary that reads stdin and prints {}, built with the hooks'
 * own flags, --bytecode included), rehydrate (the hook binary), multicall (`rehydrate <hook>`),
 * no-bytecode (the hook built with `build.ts --no-bytecode`; `--no-bytecode` leaves this column
 * out), bun and deno (the hook from source), node and python (the peers in bench/peers/, where one
 * exists).
 * Peak RSS is measured in separate runs under /usr/bin/time (GNU time forks a small child, so the
 * figure is the hook's own), never in the timed runs: Bun.spawnSync's resourceUsage.maxRSS is the
 * harness's RSS (the vfork'd child inherits the parent's high-water mark), and wrapping timed runs
 * in time(1) would add its fork to every number.
 *
 * Bench tooling: Bun APIs are fine here; nothing in hooks/ or lib/ imports this.
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { cpus, platform, release, totalmem } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { COMPILE_FLAGS } from "../build_flags.ts";
import { ratio, roundOrder, summarize } from "./stats.ts";
import { snapshotTree } from "./sandbox.ts";
import { ACTIVE_PROJECT, writeWorkspace } from "./gen/workspace.ts";
import { FINAL_CONTEXT_TOKENS, writeTranscript } from "./gen/transcript.ts";
import { AGE, HOOK_CASES, type HookCase, hookInput } from "./gen/inputs.ts";
import {
  type BenchResults,
  type CaseResult,
  type CommandResult,
  evaluateTargets,
  type HonestyCheck,
  type InstructionCounts,
  renderMarkdown,
  renderSvg,
} from "./report.ts";
import { countInstructions } from "./instructions.ts";

const ROOT = join(import.meta.dirname, "..");
const BENCH = join(ROOT, "bench");
const CACHE = join(BENCH, ".cache");
const SANDBOX = join(CACHE, "run");
export const WS = join(SANDBOX, "ws");
const STATE = join(SANDBOX, "state");
const HOME = join(SANDBOX, "home");
const SESSION_ID = "5f0c1a8e-7b2d-4c3e-9a41-b3d2e6f70a19";
const FIXTURES = join(ROOT, "tests", "fixtures");
const REAL = [
  { id: "real-3mb", file: join(FIXTURES, "public", "spotter__4d5611e5-auto-compaction.jsonl") },
  {
    id: "real-65kb",
    file: join(FIXTURES, "claude-code-2.1.197", "transcripts", "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf.jsonl"),
  },
];

interface Command {
  id: string;
  argv: string[];
  /** Counted runs at most (peers on big transcripts). */
  maxRuns: number;
  warmup: number;
}

/**
 * The first 12 hex digits of the SHA-256 of `parts`: the cache keys of the generated inputs and builds.
 *
 * @example
 * ```ts
 * const key = sha([readFileSync("bench/gen/repo_transcript.ts")]); // "11025598e7dd"
 * ```
 */
export function sha(parts: (string | Uint8Array)[]): string {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return h.digest("hex").slice(0, 12);
}

function filesIn(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (f.isDirectory()) out.push(...filesIn(join(dir, f.name), ext));
    else if (f.name.endsWith(ext)) out.push(join(dir, f.name));
  }
  return out;
}

function run(argv: string[], opts: { cwd?: string; env?: Record<string, string>; stdin?: Uint8Array } = {}) {
  return Bun.spawnSync(argv, {
    cwd: opts.cwd ?? ROOT,
    env: opts.env,
    stdin: opts.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

function version(argv: string[]): string | null {
  try {
    const r = run(argv);
    return r.exitCode === 0 ? (r.stdout.toString() + r.stderr.toString()).trim().split("\n")[0] : null;
  } catch {
    return null;
  }
}

function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

/**
 * Builds the hook binaries and the floor into the cache, keyed by the sources: `bin/` as
 * `bun build.ts` makes them (with --bytecode, build.ts's default) and the floor with the very same
 * flags; `bin-no-bytecode/` (unless `--no-bytecode`) with `bun build.ts --no-bytecode`, the column
 * that shows what the bytecode cache buys.
 */
export function buildBinaries(withNoBytecode: boolean): { dir: string; noBytecodeDir: string | null; key: string } {
  const sources = [
    ...filesIn(join(ROOT, "hooks"), ".ts"),
    ...filesIn(join(ROOT, "lib"), ".ts"),
    ...(existsSync(join(ROOT, "schemas")) ? filesIn(join(ROOT, "schemas"), ".json") : []),
    join(ROOT, "build.ts"),
    join(ROOT, "build_flags.ts"),
    join(BENCH, "floor.ts"),
    join(BENCH, "run.ts"),
    join(ROOT, "package.json"),
  ];
  const key = sha([Bun.version, COMPILE_FLAGS.join(" "), ...sources.flatMap((f) => [f, readFileSync(f)])]);
  const build = (variant: string, bytecode: boolean): string => {
    const base = join(CACHE, variant);
    const dir = join(base, key);
    if (existsSync(join(dir, ".done"))) return dir;
    if (existsSync(base)) {
      for (const old of readdirSync(base)) rmSync(join(base, old), { recursive: true, force: true });
    }
    mkdirSync(dir, { recursive: true });
    console.log(`building ${variant} binaries (${key}) ...`);
    const r = run([process.execPath, "build.ts", "--outdir", dir, ...(bytecode ? [] : ["--no-bytecode"])]);
    if (r.exitCode !== 0) throw new Error(`build.ts failed:\n${r.stderr.toString()}${r.stdout.toString()}`);
    if (bytecode) {
      // The floor gets the hooks' own flags, --bytecode included: a floor built without it starts
      // about 2-3 ms slower here and would flatter every ratio.
      const f = run([
        process.execPath,
        "build",
        ...COMPILE_FLAGS,
        "--bytecode",
        join(BENCH, "floor.ts"),
        "--outfile",
        join(dir, "floor"),
      ]);
      if (f.exitCode !== 0) throw new Error(`floor build failed:\n${f.stderr.toString()}`);
      // The source columns run this copy, so they measure the same code as the binaries even when
      // someone edits lib/ while the bench runs.
      for (const d of ["hooks", "lib", "schemas"]) {
        if (existsSync(join(ROOT, d))) cpSync(join(ROOT, d), join(dir, "src", d), { recursive: true });
      }
      cpSync(join(ROOT, "package.json"), join(dir, "src", "package.json"));
    }
    writeFileSync(join(dir, ".done"), key);
    return dir;
  };
  const dir = build("bin", true);
  return { dir, noBytecodeDir: withNoBytecode ? build("bin-no-bytecode", false) : null, key };
}

/** The pristine workspace, generated once per generator version. */
export function pristineWorkspace(): string {
  const gen = ["workspace.ts", "random.ts"].map((f) => readFileSync(join(BENCH, "gen", f)));
  const key = sha([...gen]);
  const dir = join(CACHE, `workspace-${key}`);
  if (!existsSync(join(dir, ".done"))) {
    rmSync(dir, { recursive: true, force: true });
    const n = writeWorkspace(dir);
    writeFileSync(join(dir, ".done"), String(n));
  }
  return dir;
}

/** A generated transcript of `mb` MB, cached by the generators' content and the workspace path. */
export function transcript(mb: number): { path: string; bytes: number; seconds: number } {
  const gen = ["transcript.ts", "workspace.ts", "random.ts"].map((f) => readFileSync(join(BENCH, "gen", f)));
  const key = sha([...gen, WS, SESSION_ID, String(mb)]);
  const dir = join(CACHE, "transcripts");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${mb}mb-${key}.jsonl`);
  if (existsSync(path)) return { path, bytes: statSync(path).size, seconds: 0 };
  for (const f of readdirSync(dir)) if (f.startsWith(`${mb}mb-`)) rmSync(join(dir, f), { force: true });
  process.stdout.write(`generating ${mb} MB transcript ... `);
  const t = performance.now();
  writeTranscript(path + ".tmp", { targetBytes: mb * 1e6, workspace: WS, sessionId: SESSION_ID, seed: 1000 + mb });
  renameSync(path + ".tmp", path);
  const seconds = (performance.now() - t) / 1000;
  console.log(`${seconds.toFixed(1)} s`);
  return { path, bytes: statSync(path).size, seconds };
}

function freshSandbox(pristine: string): void {
  rmSync(SANDBOX, { recursive: true, force: true });
  mkdirSync(SANDBOX, { recursive: true });
  // Timestamps kept: a real workspace's files are not minutes old, and a file modified in the last
  // seconds is never cached (lib/orchestration/_resumption_cache.ts).
  cpSync(pristine, WS, { recursive: true, preserveTimestamps: true });
  rmSync(join(WS, ".done"), { force: true });
  // cpSync's preserveTimestamps leaves the folders as new as the copy: give them their pristine times.
  const oldDirs = (from: string, to: string): void => {
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory()) oldDirs(join(from, e.name), join(to, e.name));
    }
    const st = statSync(from);
    utimesSync(to, st.atime, st.mtime);
  };
  oldDirs(pristine, WS);
  mkdirSync(STATE, { recursive: true, mode: 0o700 });
  mkdirSync(HOME, { recursive: true, mode: 0o700 });
}

/**
 * A fresh sandbox in the state right after a compaction, for one transcript: our PreCompact and
 * PostCompact have run, and so has the peers' PreCompact (its state file is what the peers'
 * SessionStart reads). Returns the payload encoder and, per case, the function that puts the
 * sandbox back before each run (a case that starts later in the cycle also runs its earlier
 * hooks, untimed).
 */
export function afterCompaction(
  pristine: string,
  binDir: string,
  transcriptPath: string,
  env: Record<string, string>,
  peers: { node?: string | null; python?: string | null } = {},
): { enc: (id: string) => Uint8Array; restoreFor: (hook: HookCase) => () => void } {
  freshSandbox(pristine);
  const ctx = { sessionId: SESSION_ID, transcriptPath, cwd: WS };
  const enc = (id: string) => new TextEncoder().encode(hookInput(id, ctx));
  run([join(binDir, "pre-compact")], { cwd: WS, env, stdin: enc("pre-compact") });
  run([join(binDir, "post-compact")], { cwd: WS, env, stdin: enc("post-compact") });
  // rehydrate has started in this workspace before (another session): the startup menu's cache
  // exists, as it does for every start but a workspace's very first.
  run([join(binDir, "session-start")], {
    cwd: WS,
    env,
    stdin: new TextEncoder().encode(
      hookInput("session-start@startup", { ...ctx, sessionId: "0b7c4a52-9d1e-4f3a-8c6b-2e5d7f9a1c30" }),
    ),
  });
  if (peers.node) {
    run([peers.node, join(BENCH, "peers", "pre-compact.mjs")], { cwd: WS, env, stdin: enc("pre-compact") });
  } else if (peers.python) {
    run([peers.python, join(BENCH, "peers", "pre-compact.py")], { cwd: WS, env, stdin: enc("pre-compact") });
  }
  const snap = snapshotTree(SANDBOX);
  const restoreFor = (hook: HookCase) => (): void => {
    snap.restore();
    for (const p of hook.prepare ?? []) {
      if (p === AGE) {
        ageTree(SANDBOX, 60_000);
        continue;
      }
      const prior = HOOK_CASES.find((h) => h.id === p)!;
      run([join(binDir, prior.binary)], { cwd: WS, env, stdin: enc(p) });
    }
  };
  return { enc, restoreFor };
}

/**
 * Dates the files and folders under `root` changed in the last minute back by `ms` (mtime and
 * atime; the ctime cannot be), as if that time had passed. The rest are older already (the
 * sandbox keeps the pristine workspace's times), and the next restore rewrites only these.
 */
function ageTree(root: string, ms: number): void {
  const recent = Date.now() - 60_000;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      const st = statSync(p);
      if (st.mtimeMs > recent) utimesSync(p, new Date(st.atimeMs - ms), new Date(st.mtimeMs - ms));
    }
  };
  walk(root);
}

/** The environment every timed command runs with: the sandbox's HOME, state and project. */
export function sandboxEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME,
    REHYDRATE_STATE_DIR: STATE,
    CLAUDE_PROJECT_DIR: WS,
    DENO_DIR: join(CACHE, "deno"),
    DENO_NO_UPDATE_CHECK: "1",
    XDG_CACHE_HOME: join(CACHE, "xdg"),
    LANG: "C.UTF-8",
  };
}

function median(values: number[]): number {
  return summarize(values).median;
}

function rssKB(argv: string[], stdin: Uint8Array, env: Record<string, string>): number | null {
  const out = join(CACHE, "rss.txt");
  const r = Bun.spawnSync(["/usr/bin/time", "-f", "%M", "-o", out, ...argv], {
    cwd: WS,
    env,
    stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (r.exitCode === null) return null;
  const kb = Number(readFileSync(out, "utf8").trim().split("\n").pop());
  return Number.isFinite(kb) ? kb : null;
}

/**
 * Drops each file from the page cache (`dd iflag=nocache count=0`), so that every command of a
 * case starts from the same state: loaded from disk by its warm-up runs, as a user's binaries are
 * after a reboot. Without it, how a binary came to be in the page cache decides its speed here: a
 * freshly written copy of the floor ran 1.5 ms (14 %) faster than the same binary read back from
 * disk, and binaries built or copied at different times could not be compared. Returns false
 * where `dd` cannot do it (not GNU dd); the measurement then goes on without.
 */
export function evictFromPageCache(paths: string[]): boolean {
  let ok = true;
  for (const p of new Set(paths)) {
    const r = Bun.spawnSync(["dd", `if=${p}`, "iflag=nocache", "count=0", "status=none"], {
      stdout: "ignore",
      stderr: "ignore",
    });
    if (r.exitCode !== 0) ok = false;
  }
  return ok;
}

let evictWarned = false;

/** Interleaved measurement of one case. */
function measureCase(
  commands: Command[],
  stdin: Uint8Array,
  env: Record<string, string>,
  restore: () => void,
  opts: { runs: number; rssRuns: number; hasTime: boolean },
): Record<string, CommandResult> {
  const wall = new Map<string, number[]>(commands.map((c) => [c.id, []]));
  const last = new Map<string, { exitCode: number | null; stdout: string; stderr: string }>();
  const once = (c: Command): number => {
    restore();
    const t0 = performance.now();
    const r = Bun.spawnSync(c.argv, { cwd: WS, env, stdin, stdout: "pipe", stderr: "pipe", timeout: 600_000 });
    const ms = performance.now() - t0;
    last.set(c.id, { exitCode: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() });
    return ms;
  };
  if (!evictFromPageCache(commands.map((c) => c.argv[0])) && !evictWarned) {
    evictWarned = true;
    console.warn(
      "WARNING: could not drop the binaries from the page cache (needs GNU dd); binaries built at different times may not compare alike",
    );
  }
  const maxWarm = Math.max(...commands.map((c) => c.warmup));
  for (let w = 0; w < maxWarm; w++) for (const c of roundOrder(commands, w)) if (w < c.warmup) once(c);
  for (let round = 0; round < opts.runs; round++) {
    for (const c of roundOrder(commands, round)) {
      const list = wall.get(c.id)!;
      if (list.length >= c.maxRuns) continue;
      list.push(once(c));
    }
  }
  const out: Record<string, CommandResult> = {};
  for (const c of commands) {
    const rss: number[] = [];
    if (opts.hasTime) {
      for (let k = 0; k < Math.min(opts.rssRuns, c.maxRuns); k++) {
        restore();
        const kb = rssKB(c.argv, stdin, env);
        if (kb !== null) rss.push(kb);
      }
    }
    const l = last.get(c.id)!;
    out[c.id] = {
      argv: c.argv.map((a) => a.replace(ROOT + "/", "")),
      wall: summarize(wall.get(c.id)!),
      samples: wall.get(c.id)!.map((v) => Math.round(v * 100) / 100),
      rssKB: rss.length ? median(rss) : null,
      exitCode: l.exitCode,
      stdoutBytes: Buffer.byteLength(l.stdout),
      stderr: l.stderr ? l.stderr.slice(0, 300) : undefined,
    };
  }
  restore();
  return out;
}

function additionalContext(stdout: string): string {
  try {
    const j = JSON.parse(stdout);
    const ctx = j?.hookSpecificOutput?.additionalContext;
    return typeof ctx === "string" ? ctx : stdout;
  } catch {
    return stdout;
  }
}

/** Runs ours and the peers once on the same sandbox state and compares what they produce in substance. */
function honesty(
  hook: HookCase,
  commands: Command[],
  stdin: Uint8Array,
  env: Record<string, string>,
  restore: () => void,
  input: string,
): HonestyCheck[] {
  const checks: HonestyCheck[] = [];
  const statePath = join(WS, "00-system", ".cache", "precompact_state.json");
  const manifest = ["01-overview.md", "03-plan.md", "04-steps.md"];
  for (const c of commands.filter((c) => c.id === "rehydrate" || c.id === "node" || c.id === "python")) {
    restore();
    if (hook.id === "pre-compact") rmSync(statePath, { force: true });
    const r = Bun.spawnSync(c.argv, { cwd: WS, env, stdin, stdout: "pipe", stderr: "pipe" });
    const stdout = r.stdout.toString();
    const problems: string[] = [];
    let summary = "";
    if (hook.id === "pre-compact") {
      let state: { active_project_id?: string; confidence?: string } | null = null;
      try {
        state = JSON.parse(readFileSync(statePath, "utf8"));
      } catch { /* none written */ }
      if (!state) problems.push("wrote no 00-system/.cache/precompact_state.json");
      else if (state.active_project_id !== ACTIVE_PROJECT) {
        problems.push(`active_project_id ${state.active_project_id}, expected ${ACTIVE_PROJECT}`);
      }
      summary = state ? `state: ${state.active_project_id} (${state.confidence})` : "no state file";
    } else if (hook.id === "session-start") {
      const ctx = additionalContext(stdout);
      if (!stdout.trim()) problems.push("injected nothing");
      else {
        if (!ctx.includes(ACTIVE_PROJECT)) problems.push(`context does not name ${ACTIVE_PROJECT}`);
        for (const f of manifest) if (!ctx.includes(f)) problems.push(`context does not name ${f}`);
      }
      summary = `${ctx.length} chars of context`;
    } else if (hook.id === "user-prompt-submit") {
      const ctx = additionalContext(stdout);
      const pct = (FINAL_CONTEXT_TOKENS / 2000).toFixed(0);
      if (!stdout.trim()) problems.push("injected nothing");
      else if (!new RegExp(`\\b${pct}(?:\\.\\d+)?\\s?%`).test(ctx)) {
        problems.push(`context does not report ${pct} % fill`);
      }
      summary = stdout.trim() ? ctx.replace(/\s+/g, " ").slice(0, 120) : "no output";
    }
    checks.push({
      hook: hook.id,
      input,
      command: c.id,
      ok: problems.length === 0,
      problems,
      summary,
      exitCode: r.exitCode,
    });
  }
  restore();
  return checks;
}

function machine() {
  const cpu = cpus();
  let os = `${platform()} ${release()}`;
  try {
    const pretty = readFileSync("/etc/os-release", "utf8").match(/^PRETTY_NAME="?([^"\n]+)"?/m);
    if (pretty) os = `${pretty[1]} (${platform()} ${release()})`;
  } catch { /* not Linux */ }
  return { cpu: cpu[0]?.model ?? "unknown", cores: cpu.length, memoryGB: Math.round(totalmem() / 1e9), os };
}

function main(): void {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      quick: { type: "boolean", default: false },
      sizes: { type: "string" },
      hooks: { type: "string" },
      runs: { type: "string" },
      warmup: { type: "string" },
      "rss-runs": { type: "string" },
      "no-peers": { type: "boolean", default: false },
      "no-source": { type: "boolean", default: false },
      source: { type: "boolean", default: false },
      "no-bytecode": { type: "boolean", default: false },
      "no-real": { type: "boolean", default: false },
      instructions: { type: "boolean", default: false },
      "no-instructions": { type: "boolean", default: false },
      out: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(
      readFileSync(import.meta.filename, "utf8").split("\n").slice(2, 18).map((l) => l.replace(/^ \* ?/, "")).join(
        "\n",
      ),
    );
    return;
  }
  const quick = values.quick!;
  const sizes = (values.sizes ?? (quick ? "1,10" : "1,10,100,200,500")).split(",").map(Number).filter((n) => n > 0);
  const runs = Number(values.runs ?? (quick ? 5 : 25));
  const warmup = Number(values.warmup ?? (quick ? 1 : 3));
  const rssRuns = Number(values["rss-runs"] ?? (quick ? 1 : 3));
  const wantHooks = values.hooks ? new Set(values.hooks.split(",")) : null;
  const hooks = HOOK_CASES.filter((h) => !wantHooks || wantHooks.has(h.id) || wantHooks.has(h.binary));
  const outName = values.out ?? (quick ? "quick" : "latest");
  const useNoBytecode = !quick && !values["no-bytecode"];
  const useReal = !quick && !values["no-real"];
  // Instruction counts (valgrind, a few minutes): in every full run, in a quick one on request.
  const wantInstructions = quick ? values.instructions! : !values["no-instructions"];
  const started = Date.now();

  const node = values["no-peers"] ? null : which("node");
  let python = values["no-peers"] ? null : which("python3");
  if (python) {
    // A pyenv/asdf shim is a shell script: run the interpreter itself, or the peer pays for the shim.
    const real = run([python, "-c", "import sys; print(sys.executable)"]).stdout.toString().trim();
    if (real) python = real;
  }
  // The source columns (bun and deno running hooks/*.ts) take a third of a quick run, which must stay
  // under a minute; they are in every full run.
  const withSource = quick ? values.source! : !values["no-source"];
  const deno = !withSource
    ? null
    : [join(ROOT, "node_modules", ".bin", "deno"), which("deno")].find((p) => p && existsSync(p)) ?? null;
  const hasTime = existsSync("/usr/bin/time");
  const notes: string[] = [];
  if (!hasTime) notes.push("/usr/bin/time not found: no peak RSS figures.");
  if (!values["no-peers"] && !node) notes.push("node not found: no Node peer.");
  if (!values["no-peers"] && !python) notes.push("python3 not found: no Python peer.");
  const valgrind = wantInstructions && which("valgrind") !== null;
  if (wantInstructions && !valgrind) notes.push("valgrind not found: no instruction counts.");

  const bins = buildBinaries(useNoBytecode);
  notes.push(
    "The floor is built with the hooks' own flags, --bytecode included (build.ts's default). Until 2026-11-21 it was built without --bytecode, which made it start 2-3 ms slower than a bytecode binary and every ratio look better than it was.",
  );
  notes.push(
    "Before the snapshot, one SessionStart(startup) of another session has run in the workspace, so the startup menu's per-user cache exists, as it does for every start but a workspace's very first (that first start lists every project and skill and writes the cache).",
  );
  notes.push(
    "Every run starts from the same sandbox state, restored (untimed) before each run: the moment right after a compaction, when our PreCompact and PostCompact and the Node peer's PreCompact have run once. So SessionStart finds a state to resume from on every run. A case marked @steady also runs the hooks before it (untimed) after each restore: user-prompt-submit@steady is a prompt soon after a compaction (SessionStart(compact) delivered the context; the monitor and a compaction reminder run, two state writes), user-prompt-submit@quiet is most prompts of a session (the three reminders are used up; only the monitor runs and writes its state; a minute passes, the sandbox's recent files dated back, before the prompt ahead of the timed one, which leaves the memo the timed one answers from: the usual prompt's fast path).",
  );
  notes.push(
    "Generated transcripts are at least the nominal size (the last turn is completed). The machine is shared: interleaved runs and medians cancel drift, p95 shows the noise.",
  );
  const pristine = pristineWorkspace();
  const env = sandboxEnv();

  const inputs: BenchResults["inputs"] = [];
  for (const mb of sizes) {
    const t = transcript(mb);
    inputs.push({
      id: `${mb}mb`,
      label: `${mb} MB`,
      mb,
      bytes: t.bytes,
      path: t.path,
      generated: true,
      generateSeconds: t.seconds,
    });
  }
  if (useReal) {
    for (const r of REAL) {
      if (existsSync(r.file)) {
        inputs.push({
          id: r.id,
          label: `${basename(r.file)} (real)`,
          mb: statSync(r.file).size / 1e6,
          bytes: statSync(r.file).size,
          path: r.file,
          generated: false,
        });
      } else notes.push(`real transcript ${r.file} not found: skipped.`);
    }
  }

  const cases: CaseResult[] = [];
  const checks: HonestyCheck[] = [];
  const peerCap = (mb: number): { maxRuns: number; warmup: number } =>
    mb >= 400
      ? { maxRuns: Math.min(runs, 3), warmup: 1 }
      : mb >= 50
      ? { maxRuns: Math.min(runs, 7), warmup: 1 }
      : { maxRuns: runs, warmup };
  const firstGenerated = inputs.find((i) => i.generated)?.id;
  // Counted on 200 MB (the size issue 4 names), else on the largest generated input.
  const countOn = inputs.find((i) => i.id === "200mb")?.id ?? inputs.filter((i) => i.generated).at(-1)?.id;
  const instructions: InstructionCounts | null = valgrind && countOn ? { input: countOn, runs: 3, cases: [] } : null;

  for (const input of inputs) {
    const { enc, restoreFor } = afterCompaction(pristine, bins.dir, input.path, env, { node, python });

    for (const hook of hooks) {
      const stdin = enc(hook.id);
      const restore = restoreFor(hook);
      const std = { maxRuns: runs, warmup };
      const commands: Command[] = [
        { id: "floor", argv: [join(bins.dir, "floor")], ...std },
        { id: "rehydrate", argv: [join(bins.dir, hook.binary)], ...std },
        { id: "multicall", argv: [join(bins.dir, "rehydrate"), hook.binary], ...std },
      ];
      if (bins.noBytecodeDir) {
        commands.push({ id: "no-bytecode", argv: [join(bins.noBytecodeDir, hook.binary)], ...std });
      }
      if (withSource) {
        commands.push({
          id: "bun",
          argv: [process.execPath, join(bins.dir, "src", "hooks", `${hook.binary}.ts`)],
          ...std,
        });
        if (deno) {
          commands.push({
            id: "deno",
            argv: [deno, "run", "-A", join(bins.dir, "src", "hooks", `${hook.binary}.ts`)],
            ...std,
          });
        }
      }
      if (hook.peer) {
        if (node) {
          commands.push({ id: "node", argv: [node, join(BENCH, "peers", `${hook.peer}.mjs`)], ...peerCap(input.mb) });
        }
        if (python) {
          commands.push({
            id: "python",
            argv: [python, join(BENCH, "peers", `${hook.peer}.py`)],
            ...peerCap(input.mb),
          });
        }
      }
      if (hook.peer && input.id === firstGenerated) {
        const c = honesty(hook, commands, stdin, env, restore, input.id);
        for (const k of c) {
          if (!k.ok) console.warn(`WARNING: ${hook.id} on ${input.id}: ${k.command} ${k.problems.join("; ")}`);
        }
        checks.push(...c);
      }
      const t = performance.now();
      const result = measureCase(commands, stdin, env, restore, { runs, rssRuns, hasTime });
      const floor = result.floor.wall.median;
      const show = Object.entries(result).map(([id, r]) =>
        `${id} ${r.wall.median.toFixed(1)}${id === "floor" ? "" : ` (${ratio(r.wall.median, floor)!.toFixed(2)}x)`}`
      ).join(", ");
      console.log(
        `${hook.id.padEnd(22)} ${input.id.padEnd(10)} ${show}  [${((performance.now() - t) / 1000).toFixed(1)} s]`,
      );
      cases.push({ hook: hook.id, input: input.id, commands: result });
      if (instructions && input.id === instructions.input) {
        const counts: Record<string, number> = {};
        for (const c of commands.filter((c) => c.id === "floor" || c.id === "rehydrate" || c.id === "multicall")) {
          counts[c.id] = countInstructions(c.argv, { cwd: WS, env, stdin, restore, runs: instructions.runs });
        }
        instructions.cases.push({ hook: hook.id, counts });
        console.log(
          `${"".padEnd(22)} ${"".padEnd(10)} instructions: ${
            Object.entries(counts).map(([id, n]) => `${id} ${(n / 1e6).toFixed(2)}M`).join(", ")
          }`,
        );
      }
    }
  }

  const results: BenchResults = {
    schema: 1,
    date: new Date().toISOString(),
    mode: quick ? "quick" : "full",
    durationSeconds: Math.round((Date.now() - started) / 1000),
    machine: machine(),
    versions: {
      rehydrate: JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version,
      bun: Bun.version,
      deno: deno ? version([deno, "--version"]) : null,
      node: node ? version([node, "--version"]) : null,
      python: python ? version([python, "--version"]) : null,
    },
    settings: {
      runs,
      warmup,
      rssRuns,
      peerRunsAt100MB: Math.min(runs, 7),
      peerRunsAt500MB: Math.min(runs, 3),
      binariesKey: bins.key,
      sessionId: SESSION_ID,
      activeProject: ACTIVE_PROJECT,
    },
    inputs: inputs.map(({ path, ...rest }) => ({ ...rest, path: path.replace(ROOT + "/", "") })),
    cases,
    honesty: checks,
    notes,
    targets: [],
    instructions,
  };
  results.targets = evaluateTargets(results);
  const outDir = join(BENCH, "results");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${outName}.json`), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(
    join(outDir, `${outName}.md`),
    renderMarkdown(results, { svg: `${outName === "latest" ? "latency" : outName}.svg` }),
  );
  writeFileSync(join(outDir, `${outName === "latest" ? "latency" : outName}.svg`), renderSvg(results));
  console.log(
    `\nwrote bench/results/${outName}.{json,md} and ${
      outName === "latest" ? "latency" : outName
    }.svg in ${results.durationSeconds} s`,
  );
  for (const t of results.targets) console.log(`${t.pass ? "PASS" : "FAIL"}  ${t.name}: ${t.detail}`);
}

if (import.meta.main) main();
