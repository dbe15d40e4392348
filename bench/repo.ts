#!/usr/bin/env bun
/**
 * The latency benchmark in an ordinary repository (issue 23): no workspace, orchestration or
 * dispatch layout, only the everyday layer speaks. Same method as `run.ts` (spawn, stdin, read
 * stdout to EOF; every command of a case interleaved, the order rotated every round, after warm-up
 * rounds; the sandbox put back to the moment right after a compaction before every run; binaries
 * dropped from the page cache before each case), with the transcript of `gen/repo_transcript.ts`
 * (typed requests, Read/Edit/Grep calls, TaskCreate/TaskUpdate, TodoWrite, usage on every
 * assistant row) at 1, 100 and 500 MB.
 *
 *   bun bench/repo.ts                          1,100,500 MB, 25 runs; writes results/repo.{json,md}
 *   --sizes 1,100,500  --runs N  --warmup N  --hooks pre-compact,stop
 *   --bin DIR       the hook binaries (`bun build.ts --outdir DIR`); default: the bench's cache build.
 *                   The floor is built into DIR with the hooks' flags when it is missing
 *   --base DIR      older binaries, counted beside ours (instructions only), e.g. /tmp/base (f2fa902)
 *   --count-on 1,500:pre-compact+session-start  the sizes whose instructions are counted (valgrind),
 *                   after a colon only these cases on that size; default 1
 *   --count-runs N  valgrind runs per count (default 2; the count repeats to about 0.1 million)
 *   --count-cases pre-compact,session-start   count only these cases (default all)
 *   --work DIR      where the repository, the sandbox and the transcripts go (default
 *                   $TMPDIR/rehydrate-bench-repo: the 500 MB transcript is not for bench/.cache)
 *   --out NAME      results/NAME.{json,md} (default repo)
 *
 * Targets (issue 23): the usual prompt, PreToolUse, PostToolUse and Stop within 1.3x the floor by
 * the per-round interval; PreCompact and SessionStart(compact) within 2.5x, from 1 MB to 500 MB.
 *
 * Bench tooling: Bun APIs are fine here; nothing in hooks/ or lib/ imports this.
 */
import {
  appendFileSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { Buffer } from "node:buffer";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { COMPILE_FLAGS } from "../build_flags.ts";
import { type PairedRatio, pairedRatio, roundOrder, summarize, type Summary } from "./stats.ts";
import { snapshotTree } from "./sandbox.ts";
import { countInstructions } from "./instructions.ts";
import { buildBinaries, evictFromPageCache, sha } from "./run.ts";
import { REPO_ACTIVE_FILE, REPO_BRANCH, writeRepo } from "./gen/repo.ts";
import { FINAL_CONTEXT_TOKENS, REPO_LAST_REQUEST, writeRepoTranscript } from "./gen/repo_transcript.ts";
import { MODEL } from "./gen/transcript.ts";

const ROOT = join(import.meta.dirname, "..");
// The generated transcripts are kept under names that carry the generator's source, so that a
// change to it regenerates them instead of timing the old ones.
const GEN_KEY = sha([readFileSync(join(ROOT, "bench", "gen", "repo_transcript.ts"))]);
const SESSION_ID = "7d2e9c41-3b8a-4f60-9e15-c4a7b2d08f36";
const AGE = "(a minute passes)";

/** One case: the binary, its payload, and the hooks that run (untimed) before it after each restore. */
interface RepoCase {
  id: string;
  binary: string;
  /** 1.3 (every prompt or tool call) or 2.5 (once per compaction); none: shown, no target. */
  target?: number;
  prepare?: readonly string[];
  /**
   * The state the case starts from: `"after"` this compaction (its PreCompact and PostCompact ran;
   * the default), or `"before"` it (the previous compaction's PreCompact and PostCompact ran, on
   * the transcript as it was then), which is what a PreCompact finds.
   */
  from?: "after" | "before";
  /**
   * A message the user typed, written to the transcript after PreCompact read it, for this case's
   * runs only (taken off again after them): what Claude Code 2.1.3xx writes when a new prompt past
   * the threshold sets off an automatic compaction.
   */
  late?: string;
}

/** The prompt of `session-start@late-prompt`: it names a file the working set does not hold. */
export const LATE_PROMPT = "Also check src/billing/tax.ts for the same float drift";

export const REPO_CASES: readonly RepoCase[] = [
  { id: "pre-compact", binary: "pre-compact", target: 2.5, from: "before" },
  { id: "session-start", binary: "session-start", target: 2.5 },
  // SessionStart(compact) after an automatic compaction set off by a new prompt (Claude Code
  // 2.1.3xx): the saved snapshot is stale by that prompt and is brought up to date.
  { id: "session-start@late-prompt", binary: "session-start", target: 2.5, late: LATE_PROMPT },
  // The first prompt after a compaction whose SessionStart never printed: the short re-delivery.
  { id: "user-prompt-submit", binary: "user-prompt-submit" },
  // The first prompt after SessionStart(compact) delivered: the follow-up reads the summary the
  // client wrote and adds what it lacks (once per compaction).
  { id: "user-prompt-submit@follow-up", binary: "user-prompt-submit", target: 2.5, prepare: ["session-start"] },
  // The usual prompt: the reminders used up, a minute between prompts, the fast path's memo left by
  // the prompt before (as run.ts's @quiet).
  {
    id: "user-prompt-submit@quiet",
    binary: "user-prompt-submit",
    target: 1.3,
    prepare: [
      "session-start",
      "user-prompt-submit",
      "user-prompt-submit",
      "user-prompt-submit",
      AGE,
      "user-prompt-submit@quiet",
    ],
  },
  // Tool calls after SessionStart(compact) delivered (the usual ones: no re-read is pending).
  { id: "pre-tool-use", binary: "pre-tool-use", target: 1.3, prepare: ["session-start"] },
  { id: "post-tool-use", binary: "post-tool-use", target: 1.3, prepare: ["session-start"] },
  { id: "stop", binary: "stop", target: 1.3, prepare: ["session-start"] },
  // The background Stop hook at the end of the newest turn (nobody waits for it: shown, no
  // target), continuing the checkpoint of the turn before.
  { id: "session-checkpoint", binary: "session-checkpoint", from: "before" },
];

/** The stdin of `caseId` (shapes as in gen/inputs.ts, from the captured Claude Code 2.1.197 payloads). */
export function repoInput(caseId: string, ctx: { transcriptPath: string; cwd: string }): string {
  const base = { session_id: SESSION_ID, transcript_path: ctx.transcriptPath, cwd: ctx.cwd };
  const file = join(ctx.cwd, REPO_ACTIVE_FILE);
  const turn = { prompt_id: "378d7424-8205-49b7-aaa9-8e003f61053d", permission_mode: "default" };
  switch (caseId.split("@")[0]) {
    case "pre-compact":
      return JSON.stringify({ ...base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null });
    case "post-compact":
      return JSON.stringify({
        ...base,
        hook_event_name: "PostCompact",
        trigger: "auto",
        compact_summary: `<summary>Fixing the rounding in ${REPO_ACTIVE_FILE}.</summary>`,
      });
    case "session-start":
      return JSON.stringify({ ...base, hook_event_name: "SessionStart", source: "compact", model: MODEL });
    case "user-prompt-submit":
      return JSON.stringify({ ...base, ...turn, hook_event_name: "UserPromptSubmit", prompt: "go on with the test" });
    case "pre-tool-use":
      return JSON.stringify({
        ...base,
        ...turn,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: file },
        tool_use_id: "toolu_9cbb597a149e143a2980c1cd",
      });
    case "post-tool-use":
      return JSON.stringify({
        ...base,
        ...turn,
        hook_event_name: "PostToolUse",
        tool_name: "Edit",
        tool_input: { file_path: file, old_string: "total += value", new_string: "total += value", replace_all: false },
        tool_response: {
          filePath: file,
          oldString: "total += value",
          newString: "total += value",
          originalFile: null,
          structuredPatch: [],
          userModified: false,
          replaceAll: false,
        },
        tool_use_id: "toolu_9cbb597a149e143a2980c1cf",
        duration_ms: 3,
      });
    case "stop":
    case "session-checkpoint":
      return JSON.stringify({
        ...base,
        ...turn,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: `The rounding in ${REPO_ACTIVE_FILE} is fixed; the test is next.`,
        background_tasks: [],
        session_crons: [],
      });
  }
  throw new Error(`unknown case ${caseId}`);
}

/** The last `tail` bytes of the file at `path`, `size` bytes long. */
function readTail(path: string, size: number, tail: number): Buffer {
  const fd = openSync(path, "r");
  const buf = Buffer.alloc(tail);
  try {
    readSync(fd, buf, 0, tail, size - tail);
  } finally {
    closeSync(fd);
  }
  return buf;
}

/**
 * Writes to `out` the lines of the transcript at `path` before its newest main-chain compact
 * boundary and returns `out`, or null when it has none (the tail of 16 MiB is searched).
 */
function transcriptBeforeLastBoundary(path: string, out: string): string | null {
  return transcriptBeforeLast(path, out, '"subtype":"compact_boundary"', (row) => row.type === "system");
}

/**
 * Writes to `out` the lines of the transcript at `path` before its newest message the user typed
 * (a main-chain `user` row whose content is a string) and returns `out`, or null when there is none
 * in the last 16 MiB: the transcript as it was when the turn before that message ended, so when
 * that turn's background Stop hook read it.
 */
function transcriptBeforeLastPrompt(path: string, out: string): string | null {
  return transcriptBeforeLast(
    path,
    out,
    '"type":"user"',
    (row) => row.type === "user" && row.isMeta !== true && typeof row.message?.content === "string",
  );
}

/**
 * Writes to `out` the transcript at `path` cut before its newest main-chain line that spells
 * `needle` and passes `accept` (searched in the last 16 MiB; written again only when its size
 * changed) and returns `out`, or null when there is none.
 */
function transcriptBeforeLast(
  path: string,
  out: string,
  needle: string,
  accept: (row: { type?: string; isMeta?: boolean; message?: { content?: unknown } }) => boolean,
): string | null {
  const size = statSync(path).size;
  const tail = Math.min(size, 16 << 20);
  const buf = readTail(path, size, tail);
  for (let at = buf.lastIndexOf(needle); at !== -1; at = buf.lastIndexOf(needle, at - 1)) {
    const start = buf.lastIndexOf(10, at) + 1;
    const end = buf.indexOf(10, at);
    const row = JSON.parse(buf.subarray(start, end === -1 ? buf.length : end).toString("utf8"));
    if (row.isSidechain === true || !accept(row)) continue;
    if (start === 0 && size > tail) return null;
    const cut = size - tail + start;
    if (!existsSync(out) || statSync(out).size !== cut) {
      Bun.spawnSync(["head", "-c", String(cut), path], { stdout: Bun.file(out + ".tmp") });
      Bun.spawnSync(["mv", out + ".tmp", out]);
    }
    return out;
  }
  return null;
}

/**
 * Appends a message the user typed to the transcript at `path` (a main-chain `user` row after its
 * last row) and returns what takes it off again (the file cut back to its size).
 */
function appendTypedMessage(path: string, text: string, cwd: string): () => void {
  const size = statSync(path).size;
  const buf = readTail(path, size, Math.min(size, 1 << 20));
  const lines = buf.toString("utf8").trimEnd().split("\n");
  const last = JSON.parse(lines[lines.length - 1]) as { uuid?: string; timestamp?: string };
  const row = {
    parentUuid: last.uuid ?? null,
    isSidechain: false,
    userType: "external",
    cwd,
    sessionId: SESSION_ID,
    version: "2.1.332",
    gitBranch: REPO_BRANCH,
    type: "user",
    message: { role: "user", content: text },
    uuid: "6c1b2d3e-4f50-4a61-8b72-9c83d4e5f607",
    timestamp: new Date(Date.parse(last.timestamp ?? "2026-11-06T16:00:00.000Z") + 60_000).toISOString(),
    permissionMode: "default",
  };
  appendFileSync(path, JSON.stringify(row) + "\n");
  return () => truncateSync(path, size);
}

/** Dates every file and folder under `root` back by `ms` (files changed in the last seconds are never cached). */
function dateBack(root: string, ms: number, onlyRecent = false): void {
  const recent = Date.now() - 60_000;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      const st = statSync(p);
      if (!onlyRecent || st.mtimeMs > recent) utimesSync(p, new Date(st.atimeMs - ms), new Date(st.mtimeMs - ms));
    }
    const st = statSync(dir);
    if (!onlyRecent || st.mtimeMs > recent) utimesSync(dir, new Date(st.atimeMs - ms), new Date(st.mtimeMs - ms));
  };
  walk(root);
}

interface CaseOut {
  case: string;
  mb: number;
  target: number | null;
  floor: Summary;
  hook: Summary;
  perRound: PairedRatio | null;
  verdict: "within" | "over" | "undecided" | "-";
  exitCode: number | null;
  stdoutBytes: number;
  instructions?: { floor: number; hook: number; base?: number };
}

function main(): void {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      sizes: { type: "string", default: "1,100,500" },
      runs: { type: "string", default: "25" },
      warmup: { type: "string", default: "3" },
      hooks: { type: "string" },
      bin: { type: "string" },
      base: { type: "string" },
      "count-on": { type: "string", default: "1" },
      "count-runs": { type: "string" },
      "count-cases": { type: "string" },
      work: { type: "string", default: join(tmpdir(), "rehydrate-bench-repo") },
      out: { type: "string", default: "repo" },
    },
  });
  const sizes = values.sizes!.split(",").map(Number).filter((n) => n > 0);
  const runs = Number(values.runs);
  const warmup = Number(values.warmup);
  // "1,500:pre-compact+session-start": every counted case on 1 MB, these two on 500 MB.
  const countOn = new Map(
    values["count-on"]!.split(",").map((e) => {
      const [mb, only] = e.split(":");
      return [Number(mb), only ? new Set(only.split("+")) : null] as const;
    }),
  );
  const countCases = values["count-cases"] ? new Set(values["count-cases"].split(",")) : null;
  const countRuns = values["count-runs"] ? Number(values["count-runs"]) : 2;
  // The floor's count does not depend on the case (it reads stdin and prints {}): once per size.
  const floorCount = new Map<number, number>();
  const want = values.hooks ? new Set(values.hooks.split(",")) : null;
  const cases = REPO_CASES.filter((c) => !want || want.has(c.id) || want.has(c.binary));
  const work = resolve(values.work!);
  const started = Date.now();

  const bin = values.bin ? resolve(values.bin) : buildBinaries(false).dir;
  if (!existsSync(join(bin, "floor"))) {
    const f = Bun.spawnSync([
      process.execPath,
      "build",
      ...COMPILE_FLAGS,
      "--bytecode",
      join(ROOT, "bench", "floor.ts"),
      "--outfile",
      join(bin, "floor"),
    ], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (f.exitCode !== 0) throw new Error(`floor build failed:\n${f.stderr.toString()}`);
  }
  const base = values.base ? resolve(values.base) : null;

  // The pristine repository, a day old (the per-user caches never trust a file changed in the last seconds).
  const pristine = join(work, "repo-pristine");
  if (!existsSync(join(pristine, ".git", "HEAD"))) {
    writeRepo(pristine);
    dateBack(pristine, 86_400_000);
  }
  const sandbox = join(work, "run");
  const repo = join(sandbox, "invoice-service");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(sandbox, "home"),
    REHYDRATE_STATE_DIR: join(sandbox, "state"),
    CLAUDE_PROJECT_DIR: repo,
    LANG: "C.UTF-8",
  };
  const spawn = (argv: string[], stdin: string) =>
    Bun.spawnSync(argv, { cwd: repo, env, stdin: new TextEncoder().encode(stdin), stdout: "pipe", stderr: "pipe" });

  const results: CaseOut[] = [];
  const inputs: { mb: number; bytes: number; path: string }[] = [];
  for (const mb of sizes) {
    const path = join(work, `repo-${mb}mb-${GEN_KEY}.jsonl`);
    if (!existsSync(path)) {
      process.stdout.write(`generating ${mb} MB repository transcript ... `);
      const t = performance.now();
      writeRepoTranscript(path + ".tmp", { targetBytes: mb * 1e6, repo, sessionId: SESSION_ID, seed: 2000 + mb });
      Bun.spawnSync(["mv", path + ".tmp", path]);
      console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    inputs.push({ mb, bytes: statSync(path).size, path });
    // The moment right after a compaction: PreCompact and PostCompact have run once.
    Bun.spawnSync(["rm", "-rf", sandbox]);
    mkdirSync(sandbox, { recursive: true });
    cpSync(pristine, repo, { recursive: true, preserveTimestamps: true });
    dateBack(repo, 86_400_000); // the folders are as new as the copy otherwise
    mkdirSync(env.HOME, { recursive: true, mode: 0o700 });
    mkdirSync(env.REHYDRATE_STATE_DIR, { recursive: true, mode: 0o700 });
    const ctx = { transcriptPath: path, cwd: repo };
    // Before this compaction: the previous one's hooks ran on the transcript as it was then (cut
    // before its newest compact boundary); a transcript without one was never compacted.
    const earlier = transcriptBeforeLastBoundary(path, join(work, `repo-${mb}mb-${GEN_KEY}.before.jsonl`));
    if (earlier !== null) {
      const then = { transcriptPath: earlier, cwd: repo };
      spawn([join(bin, "pre-compact")], repoInput("pre-compact", then));
      spawn([join(bin, "post-compact")], repoInput("post-compact", then));
    }
    // And the background Stop hook of the turn before the newest prompt saved its checkpoint: this
    // PreCompact may come in the middle of the newest turn (an automatic compaction), so the
    // checkpoint of the turn that ended at the transcript's end is not counted on. A binary without
    // that hook (an older build) leaves none.
    const turnEnd = transcriptBeforeLastPrompt(path, join(work, `repo-${mb}mb-${GEN_KEY}.turn.jsonl`));
    if (turnEnd !== null && existsSync(join(bin, "session-checkpoint"))) {
      spawn([join(bin, "session-checkpoint")], repoInput("session-checkpoint", { transcriptPath: turnEnd, cwd: repo }));
    }
    const before = snapshotTree(sandbox);
    spawn([join(bin, "pre-compact")], repoInput("pre-compact", ctx));
    spawn([join(bin, "post-compact")], repoInput("post-compact", ctx));
    const snap = snapshotTree(sandbox);

    const runCase = (c: RepoCase): void => {
      const restore = (): void => {
        (c.from === "before" ? before : snap).restore();
        for (const p of c.prepare ?? []) {
          if (p === AGE) dateBack(sandbox, 60_000, true);
          else spawn([join(bin, REPO_CASES.find((k) => k.id === p)!.binary)], repoInput(p, ctx));
        }
      };
      const stdin = repoInput(c.id, ctx);
      const commands = [
        { id: "floor", argv: [join(bin, "floor")] },
        { id: "hook", argv: [join(bin, c.binary)] },
      ];
      evictFromPageCache(commands.map((k) => k.argv[0]));
      const wall = new Map(commands.map((k) => [k.id, [] as number[]]));
      let last = { exitCode: null as number | null, stdout: "" };
      for (let round = 0; round < warmup + runs; round++) {
        for (const k of roundOrder(commands, round)) {
          restore();
          const t0 = performance.now();
          const r = spawn(k.argv, stdin);
          const ms = performance.now() - t0;
          if (round >= warmup) wall.get(k.id)!.push(ms);
          if (k.id === "hook") last = { exitCode: r.exitCode, stdout: r.stdout.toString() };
        }
      }
      const per = pairedRatio(wall.get("hook")!, wall.get("floor")!);
      const out: CaseOut = {
        case: c.id,
        mb,
        target: c.target ?? null,
        floor: summarize(wall.get("floor")!),
        hook: summarize(wall.get("hook")!),
        perRound: per,
        verdict: !c.target || !per ? "-" : per.hi <= c.target ? "within" : per.lo > c.target ? "over" : "undecided",
        exitCode: last.exitCode,
        stdoutBytes: Buffer.byteLength(last.stdout),
      };
      const countHere = countOn.get(mb);
      if (countHere !== undefined && (!countCases || countCases.has(c.id)) && (!countHere || countHere.has(c.id))) {
        const opts = { cwd: repo, env, stdin: new TextEncoder().encode(stdin), restore, runs: countRuns };
        if (!floorCount.has(mb)) floorCount.set(mb, countInstructions([join(bin, "floor")], opts));
        out.instructions = {
          floor: floorCount.get(mb)!,
          hook: countInstructions([join(bin, c.binary)], opts),
        };
        if (base && existsSync(join(base, c.binary))) {
          out.instructions.base = countInstructions([join(base, c.binary)], opts);
        }
      }
      restore();
      results.push(out);
      const i = out.instructions;
      console.log(
        `${c.id.padEnd(26)} ${String(mb).padStart(4)} MB  floor ${out.floor.median.toFixed(1)} ms  hook ${
          out.hook.median.toFixed(1)
        } ms  per round ${per ? `${per.median.toFixed(2)} [${per.lo.toFixed(2)}, ${per.hi.toFixed(2)}]` : "-"}  ${
          c.target ? `${out.verdict} ${c.target}x` : ""
        }${
          i
            ? `  instructions beyond the floor ${((i.hook - i.floor) / 1e6).toFixed(1)}M${
              i.base !== undefined ? ` (base ${((i.base - i.floor) / 1e6).toFixed(1)}M)` : ""
            }`
            : ""
        }  exit ${out.exitCode}, ${out.stdoutBytes} B out`,
      );
    };

    for (const c of cases) {
      const undoLate = c.late === undefined ? null : appendTypedMessage(path, c.late, repo);
      try {
        runCase(c);
      } finally {
        undoLate?.();
      }
    }
  }

  const head = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT }).stdout.toString().trim();
  const dirty = Bun.spawnSync(["git", "status", "--porcelain", "hooks", "lib"], { cwd: ROOT }).stdout.toString()
    .trim() !== "";
  const json = {
    schema: 1,
    date: new Date().toISOString(),
    commit: head + (dirty ? " (with uncommitted changes in hooks/ or lib/)" : ""),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    countRuns,
    settings: {
      runs,
      warmup,
      sizes,
      countOn: values["count-on"],
      bin,
      base,
      sessionId: SESSION_ID,
      branch: REPO_BRANCH,
    },
    load: readFileSync("/proc/loadavg", "utf8").trim(),
    inputs: inputs.map(({ path, ...rest }) => ({ ...rest, file: path.split("/").pop() })),
    cases: results,
  };
  const outDir = join(ROOT, "bench", "results");
  writeFileSync(join(outDir, `${values.out}.json`), JSON.stringify(json, null, 2) + "\n");
  writeFileSync(join(outDir, `${values.out}.md`), render(json, results));
  console.log(`wrote bench/results/${values.out}.{json,md} in ${json.durationSeconds} s`);
}

function render(
  json: { date: string; commit: string; load: string; durationSeconds: number; countRuns: number },
  rows: CaseOut[],
): string {
  const ms = (s: Summary) => `${s.median.toFixed(1)} ms`;
  const m = (n: number) => (n / 1e6).toFixed(1);
  const lines = rows.map((r) => {
    const p = r.perRound;
    const i = r.instructions;
    return `| ${r.case} | ${r.mb} MB | ${ms(r.floor)} | ${ms(r.hook)} (p95 ${r.hook.p95.toFixed(1)}) | ${
      p ? `${p.median.toFixed(2)}x [${p.lo.toFixed(2)}, ${p.hi.toFixed(2)}]` : "–"
    } | ${r.target ? `${r.target}x: **${r.verdict}**` : "–"} | ${i ? m(i.hook - i.floor) : ""} | ${
      i?.base !== undefined ? m(i.base - i.floor) : ""
    } | ${r.stdoutBytes} |`;
  });
  const targets = rows.filter((r) => r.target);
  const count = (v: string) => targets.filter((r) => r.verdict === v).length;
  return `# Latency in an ordinary repository

\`bun bench/repo.ts\` (${json.date}, commit ${json.commit}, ${json.durationSeconds} s; load average at the end: ${json.load}).
An ordinary git checkout (\`bench/gen/repo.ts\`: 8 modules of source and tests, docs, \`.git/HEAD\` on
\`${REPO_BRANCH}\`; no workspace, orchestration or dispatch layout), the transcript of
\`bench/gen/repo_transcript.ts\` (typed requests, Read/Edit/Write/Grep/Glob/Bash calls with their results,
TaskCreate/TaskUpdate, TodoWrite, file-history snapshots, usage on every assistant row, a compaction every
3 MB; ends at ${FINAL_CONTEXT_TOKENS.toLocaleString("en")} context tokens after the request "${REPO_LAST_REQUEST}").
Every run starts from the moment right after a compaction (PreCompact and PostCompact ran once), except
\`pre-compact\`, which starts from the moment before it (the previous compaction's PreCompact and PostCompact
ran on the transcript cut at its newest boundary, so its snapshot is there to continue); a case's earlier hooks
run untimed after each restore (\`@quiet\`: SessionStart, three prompts, a minute, a prompt);
\`session-start@late-prompt\` has a typed prompt written after PreCompact ran, as Claude Code 2.1.332 writes the
one that sets off an automatic compaction.

Per round: each run of the hook divided by the floor's run in the same round; median and the sign test's 95 %
interval. *within* = the whole interval is under the target, *over* = the whole interval is above it.
Instructions: user space, all threads, fewest of ${json.countRuns} run(s) under callgrind, minus the floor's; "f2fa902" is
\`--base\` (the binaries before the everyday layer), when given.

**Targets: ${count("within")} within, ${count("over")} over, ${count("undecided")} undecided (of ${targets.length}).**

| case | transcript | floor | hook, median | per round vs floor [95 %] | target | instructions beyond the floor (M) | f2fa902 beyond the floor (M) | stdout bytes |
|---|---:|---:|---:|---:|---|---:|---:|---:|
${lines.join("\n")}
`;
}

if (import.meta.main) main();
