// The hook fuzzer. Run: `bun tests/fuzz/run.ts [--seed N] [--cases N] [--spawn N] [--hooks a,b]
// [--world-size N] [--world W] [--jobs J] [--out tests/fuzz/RESULTS.md] [--verbose]`.
//
// Every case runs one hook on generated, damaged input in a world (see _world.ts) and checks the
// properties of _check.ts, that nothing outside the state directory, `00-system/.cache/` and
// `.jerry/` changed, and that it finished within 1 second. Most cases run in-process through
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
import { join } from "node:path";
import { handleHook, type HookHandler } from "../../lib/hook/handle_hook.ts";
import type { HookEventName } from "../../lib/hook/hook_types.ts";
import { HOOK_NAMES } from "../../lib/hook/hook_names.ts";
import { preCompactHook } from "../../lib/events/pre_compact.ts";
import { postCompactHook } from "../../lib/events/post_compact.ts";
import { sessionStartHook } from "../../lib/events/session_start.ts";
import { userPromptSubmitHook } from "../../lib/events/user_prompt_submit.ts";
import { preToolUseHook } from "../../lib/events/pre_tool_use.ts";
import { postToolUseHook } from "../../lib/events/post_tool_use.ts";
import { stopHook } from "../../lib/events/stop.ts";
import { checkOutput } from "./_check.ts";
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
  MUTABLE_FILES,
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
} as Record<string, HookHandler>;

const LIMIT_MS = 1000;

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
   * A case slower than this fails. Default 1,000 ms, the issue's property. The slice in
   * `npm test` runs on shared CI machines and only needs to catch hangs, so it allows more.
   */
  limitMs?: number;
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
    failures: [],
    failureCount: 0,
    seconds: 0,
  };
  const shared = createShared();
  const worlds = Math.ceil(o.cases / o.worldSize);
  const stride = o.spawn > 0 ? Math.max(1, Math.floor(o.cases / o.spawn)) : Infinity;
  const dist = o.dist ?? join(ROOT, "dist");
  const home = process.cwd();
  try {
    for (let w = 0; w < worlds; w++) {
      if (o.world !== undefined && w !== o.world) continue;
      const wrng = new Rng(mixSeed(o.seed, o.hook, w));
      const world = createWorld(wrng);
      result.worlds++;
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
          if (damage) before = snapshot(world.root, allowed);
          const kind: StdinKind = rng.pick(STDIN_KINDS);
          result.kinds[kind] = (result.kinds[kind] ?? 0) + 1;
          const stdin = makeStdin(rng, event, world, shared, kind);
          const env: Record<string, string | undefined> = { ...world.env };
          if (rng.chance(0.5)) env.REHYDRATE_DEBUG = "1";
          if (rng.chance(0.1)) delete env.CLAUDE_PROJECT_DIR;
          if (rng.chance(0.15)) {
            env.REHYDRATE_DISPATCH_FILE = join(world.project, "docs", "handler-dispatches", "fix-login.md");
          }
          const binary = stride !== Infinity && index % stride === 0;
          const logFrom = sizeOf(logPath);
          let problems: string[];
          let ms: number;
          let stdout: string;
          let changedTranscript: string | null = null;
          if (binary) {
            const multicall = rng.chance(0.5);
            const changing = rng.chance(0.3) ? rng.pick([world.transcripts.demo, world.transcripts.mutated]) : null;
            const r = await runBinary(dist, o.hook, multicall, stdin, env, world.project, changing, rng);
            result.binary++;
            if (multicall) result.binaryMulticall++;
            if (changing) result.binaryWhileTranscriptChanges++;
            ms = r.ms;
            stdout = r.stdout;
            problems = checkOutput(event, r.status, r.stdout, r.stderr);
            if (changing) writeFileSync(changing, demo);
            changedTranscript = changing;
            result.maxMs.binary = Math.max(result.maxMs.binary, ms);
          } else {
            const t0 = performance.now();
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
            result.inProcess++;
            stdout = outcome.stdout;
            problems = checkOutput(event, outcome.exitCode, outcome.stdout);
            if ("threw" in outcome) problems.push(`handleHook threw: ${String(outcome.threw).split("\n")[0]}`);
            result.maxMs.inProcess = Math.max(result.maxMs.inProcess, ms);
          }
          if (stdout) result.outputs.replied++;
          else result.outputs.silent++;
          if (ms > (o.limitMs ?? LIMIT_MS)) problems.push(`took ${Math.round(ms)} ms`);
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
              kind,
              damage: damage.trim(),
              problems,
              replay:
                `bun tests/fuzz/run.ts --seed ${o.seed} --hooks ${o.hook} --cases ${o.cases} --spawn ${o.spawn} --world-size ${o.worldSize} --world ${w} --verbose`,
            };
            if (result.failures.length < 50) result.failures.push(f);
            if (o.verbose) console.error(JSON.stringify(f));
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
): Promise<{ status: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = multicall
      ? spawn(join(dist, "rehydrate"), [hook], { cwd, env: env as NodeJS.ProcessEnv })
      : spawn(join(dist, hook), [], { cwd, env: env as NodeJS.ProcessEnv });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
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
      resolve({
        status,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        ms: performance.now() - t0,
      });
    });
    child.stdin.on("error", () => {/* the hook may exit before reading everything */});
    child.stdin.end(stdin);
  });
}

function linkedFiles(world: World): string[] {
  const out: string[] = [];
  for (const rel of MUTABLE_FILES) {
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
    });
    process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
    return;
  }
  if (a.spawn > 0) {
    for (const b of ["rehydrate", ...a.hooks]) {
      if (!existsSync(join(ROOT, "dist", b))) throw new Error(`dist/${b} is missing: run bun build.ts first`);
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
      console.log(
        `${hook.padEnd(19)} ${String(r.inProcess).padStart(7)} in-process  ${String(r.binary).padStart(5)} binary  ${
          String(r.failureCount).padStart(4)
        } failures  max ${Math.round(r.maxMs.inProcess)}/${Math.round(r.maxMs.binary)} ms  ${r.seconds} s`,
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
    } | ${r.failureCount} |`
  );
  const kinds: Record<string, number> = {};
  const failOpen: Record<string, number> = {};
  for (const r of results) {
    for (const [k, n] of Object.entries(r.kinds)) kinds[k] = (kinds[k] ?? 0) + n;
    for (const [k, n] of Object.entries(r.failOpen)) {
      failOpen[`${r.hook}: ${k}`] = (failOpen[`${r.hook}: ${k}`] ?? 0) + n;
    }
  }
  const failures = results.flatMap((r) => r.failures);
  return `# Fuzzing results

Command: \`bun tests/fuzz/run.ts --seed ${a.seed} --cases ${a.cases} --spawn ${a.spawn} --world-size ${a.worldSize} --jobs ${a.jobs} --out tests/fuzz/RESULTS.md\`
(${seconds} s on ${process.platform}/${process.arch}, Bun ${process.versions.bun ?? "?"}).

**${sum((r) => r.inProcess + r.binary).toLocaleString("en")} cases, ${sum((r) => r.failureCount)} failures.**

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
file outside the workspace in the output (a canary), finished within 1 s, and no entry created,
changed or removed anywhere in the world outside the state directory, \`00-system/.cache/\` and
\`.jerry/\`.

Each world is a fresh copy of examples/workspace with the orchestration runs and dispatch files of
tests/fixtures, ${a.worldSize} cases long; before a case, with probability 0.25 a workspace or state
file is damaged (byte mutations, emptied, replaced by a link to /dev/zero or /dev/urandom, a FIFO,
a directory, a 1-3 MB file, a symbolic or hard link to a file outside the workspace, a dangling
link), and with probability 0.15 the transcript is a byte-mutated copy. Transcripts also include a
generated messy one (BOM, CRLF, blank, invalid and cut lines), one of wrong row shapes, a CRLF copy,
a 50 MB single line, a FIFO, /dev/zero, /dev/urandom, a directory and missing paths.

| hook | in-process | binary | files damaged | replies | max ms (in-process / binary) | failures |
|---|---:|---|---:|---:|---:|---:|
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
