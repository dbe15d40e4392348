/**
 * What rehydrate's hooks inject after a compaction, measured on real sessions against Claude
 * Code's own summary.
 *
 * Run: `npx bun bench/payload-quality.ts [--bin dist/rehydrate] [--json OUT] [--md OUT] [--out FILE]
 * [--without NAME,...] [FILES...]`. Default files: every `tests/fixtures/detection-dev/*.jsonl.gz`
 * (30 real sessions, each with a compaction). `--out bench/results/payload-quality.md` writes the
 * markdown with the command line, the binary's `--version`, the commit and the date.
 *
 * The replay, per session: the transcript is cut at its first `compact_boundary`, the rows before
 * it are written to a temporary `cut.jsonl`, and the binary runs in the client's order (seen on
 * 2.1.197 and 2.1.332) with `PATH=/usr/bin:/bin`, a fresh `HOME` and state directory:
 * `pre-compact` (trigger auto), `session-start` (source compact), `post-compact` (with Claude
 * Code's summary as `compact_summary`); then the summary rows are appended (those among the six
 * rows after the cut that are a boundary or a summary) and, when the first main-chain row after
 * the boundary is a typed prompt, `user-prompt-submit` runs with it. The payload is SessionStart's
 * `additionalContext` (or its plain stdout), then the prompt's.
 *
 * Shared scoring: the definitions of the shared payload-quality scorer, reproduced so that every
 * per-session line and the totals line print the same numbers for the same binary (the items,
 * "new", "wrong" and "needs" rules are in `_payload_quality_rules.ts`; Python's text semantics
 * in `_py_text.ts` and `_html_unescape.ts`).
 *
 * Corrected scoring, printed after it on the same payloads (each correction can be left out with
 * `--without NAME`; the replay is the same, only the scoring changes):
 * - a. `plan-approval`: a user row starting "Implement the following plan:" is written by the
 *   client when the user approves a plan, so it is no typed message: when it is the newest
 *   message, the newest-msg need is met by the plan's title (its first markdown heading, from
 *   `planContent`) rather than the client's wrapper text, and the latest request is checked
 *   against the newest typed message before it.
 * - b. `machine-queue`: a queued row whose content starts with a client tag
 *   (`<agent-notification>`, `<task-notification>`, `<system-reminder>`, ...) is no typed
 *   message (the shared rule only drops `<task-notification>`); a request starting so is not typed.
 * - c. `hook-block`: a user row starting "Operation stopped by hook:" is the client's report of a
 *   blocked prompt, no typed message; a request starting so is not typed.
 * - d. `cmd-pipes`: the test-cmd need is also met when the re-run command, with a final
 *   `| tail`/`| head`/`| grep` stage and a trailing `2>&1` taken off, is in the payload or the
 *   summary as a whole command (the same command with a different output trimming).
 * - e. `custom-slash`: no correction; slash commands the user typed (`/review 12`) stay typed
 *   messages, settings commands (`/model`, `/clear`, ...) and `/compact` do not, as in the shared rules.
 *
 * Follow-up (stage 2): rehydrate may add at the first prompt after a compaction what the summary
 * lacks, and most sessions have no prompt right after the boundary; so every session is replayed
 * again in a fresh state directory, with the same hooks, then the boundary and summary rows
 * appended and `user-prompt-submit` with the prompt "continue". Reported apart: the characters
 * that prompt's hook added, its items, how many the summary lacks (the same "new" rule) and its
 * wrong items (the shared rules). Unlike the shared replay, which appends only rows after the
 * boundary row, this one appends the boundary row itself too, as the client writes it: without
 * it the prompt's hook measures the context fill from the last usage before the compaction and
 * warns of a nearly full window.
 *
 * Bench tooling: `node:` APIs only, so `deno check` reads it; nothing in hooks/ or lib/ imports it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  appendedRows,
  CORRECTION_NAMES,
  type CorrectionName,
  type Corrections,
  correctionsOf,
  firstBoundary,
  firstPrompt,
  newItems,
  parsePayload,
  parseTranscript,
  scoreSession,
  type SessionInput,
  type SessionScore,
  summaryOf,
  type TranscriptRow,
  userMessages,
  wrongClass,
  wrongItems,
} from "./_payload_quality_rules.ts";
import { cpLength, cpSlice, padLeft, padRight, pyBasename, pyFixed, pyTruthy } from "./_py_text.ts";
import { codexSessions, replayCodex, replayEnv } from "./_codex_replay.ts";

const ROOT = join(import.meta.dirname ?? ".", "..");
const DEV_SET = join(ROOT, "tests", "fixtures", "detection-dev");
/** The rollouts captured from the Codex CLI, the default files of `--codex`. */
const CODEX_SET = join(ROOT, "tests", "fixtures", "codex-0.171.0", "rollouts");
/** The synthetic first prompt of the follow-up replay. */
const FOLLOW_UP_PROMPT = "continue";

/** What one correction is, for the report. */
const CORRECTION_TEXT: Record<CorrectionName, string> = {
  "plan-approval": 'a row starting "Implement the following plan:" is a plan approval, no typed message; ' +
    "as the newest message its need is met by the plan's title (first markdown heading)",
  "machine-queue": "a queued row starting with a client tag (`<agent-notification>`, ...) is no typed message",
  "hook-block": 'a row starting "Operation stopped by hook:" (a blocked prompt) is no typed message',
  "cmd-pipes": "the test-cmd need is also met by the command without its final `| tail/head/grep` stage and `2>&1`",
};

/** The follow-up prompt's figures for one session. */
interface FollowUp {
  chars: number;
  items: number;
  new: number;
  wrong: string[];
}

/** One session's results. */
interface SessionResult {
  file: string;
  /** Whether the replay ran user-prompt-submit for a typed prompt after the boundary. */
  prompt: boolean;
  /** What the hooks injected (the scored payload). */
  payload: string;
  /** What the follow-up prompt's hook injected. */
  followUpPayload: string;
  shared: SessionScore;
  corrected: SessionScore;
  followUp: FollowUp;
}

/** Sums over sessions, as the shared totals line reports them. */
interface Totals {
  n: number;
  medianChars: number;
  items: number;
  new: number;
  wrong: number;
  needs: number;
  have: number;
  alone: number;
  wrongByClass: Record<string, number>;
}

/** What the hooks of one replay injected. */
interface Replay {
  /** SessionStart's context, then (after a newline) the prompt's when one ran. */
  ctx: string;
  /** Whether user-prompt-submit ran. */
  prompt: boolean;
}

/** Options of the replay. */
interface ReplayOptions {
  /** Run user-prompt-submit with this prompt instead of the transcript's first one; return only its context. */
  followUp?: string;
}

/** Runs one hook the way the shared scorer does and returns what it injected. */
function hook(
  bin: string,
  name: string,
  input: Record<string, unknown>,
  env: Record<string, string>,
  args: readonly string[] = [],
): string {
  const p = spawnSync(bin, [name, ...args], {
    input: JSON.stringify(input),
    env,
    encoding: "utf8",
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (p.error) throw new Error(`Cannot run ${bin} ${name}: ${p.error.message}`);
  // Python's text mode reads "\r\n" and "\r" as "\n".
  const out = (p.stdout ?? "").replace(/\r\n?/g, "\n");
  try {
    const v = JSON.parse(out);
    const h = typeof v === "object" && v !== null && !Array.isArray(v) ? v.hookSpecificOutput : undefined;
    if (typeof h !== "object" || h === null || Array.isArray(h)) throw new Error("no hookSpecificOutput");
    return pyTruthy(h.additionalContext) ? String(h.additionalContext) : "";
  } catch {
    // Plain stdout of SessionStart and UserPromptSubmit is context too.
    return (name === "session-start" || name === "user-prompt-submit") && p.status === 0 ? out : "";
  }
}

/** The shared scorer's replay of one cut transcript (see the module comment). */
function replay(
  bin: string,
  rows: readonly TranscriptRow[],
  cut: number,
  summary: string,
  options: ReplayOptions = {},
): Replay {
  let cwd: unknown = null, sid: unknown = null;
  for (const { row } of rows.slice(0, cut)) {
    const r = typeof row === "object" && row !== null ? row as Record<string, unknown> : {};
    if (pyTruthy(r.cwd)) cwd = r.cwd;
    if (pyTruthy(r.sessionId)) sid = r.sessionId;
  }
  // "tmp" and eight characters, as Python's temporary directories are named: paths in the
  // payload then have the same length.
  const tmp = mkdtempSync(join(tmpdir(), "tmppq"));
  try {
    const tp = join(tmp, "cut.jsonl");
    writeFileSync(tp, rows.slice(0, cut).map((r) => r.line).join(""));
    const env = replayEnv(tmp);
    const base = { session_id: sid ?? null, transcript_path: tp, cwd: cwd ?? null };
    const run = (name: string, payload: Record<string, unknown>) => hook(bin, name, { ...base, ...payload }, env);
    run("pre-compact", { hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null });
    let ctx = run("session-start", { hook_event_name: "SessionStart", source: "compact" });
    run("post-compact", { hook_event_name: "PostCompact", trigger: "auto", compact_summary: summary });
    const appended = options.followUp === undefined ? appendedRows(rows, cut) : [rows[cut], ...appendedRows(rows, cut)];
    writeFileSync(tp, appended.map((r) => r.line).join(""), { flag: "a" });
    const prompt = options.followUp ?? firstPrompt(rows, cut);
    if (prompt === null) return { ctx, prompt: false };
    const said = run("user-prompt-submit", { hook_event_name: "UserPromptSubmit", prompt });
    if (options.followUp !== undefined) return { ctx: said, prompt: true };
    ctx += "\n" + said;
    return { ctx, prompt: true };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A transcript's text as Python's `gzip.open(..., "rt", errors="replace")` reads it (BOM kept). */
function readTranscript(file: string): string {
  const bytes = file.endsWith(".gz") ? gunzipSync(readFileSync(file)) : readFileSync(file);
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}

/** One session replayed: the scorer's input, whether a prompt ran, and the follow-up prompt's output. */
interface Replayed {
  input: SessionInput;
  prompt: boolean;
  followUp: string;
}

/** Replays one file twice (the shared replay and the follow-up); null when it has no compaction. */
function replayFile(bin: string, file: string): Replayed | null {
  const rows = parseTranscript(readTranscript(file));
  const cut = firstBoundary(rows);
  if (cut === null) return null;
  const summary = summaryOf(rows, cut);
  const { ctx, prompt } = replay(bin, rows, cut, summary);
  const followUp = replay(bin, rows, cut, summary, { followUp: FOLLOW_UP_PROMPT }).ctx;
  return { input: { rows, cut, ctx, summary }, prompt, followUp };
}

/** Scores one replayed session, shared and corrected, and its follow-up prompt. */
function scoreReplayed(file: string, r: Replayed, corrections: Corrections): SessionResult {
  const it = parsePayload(r.followUp);
  const newest = userMessages(r.input.rows.slice(0, r.input.cut)).at(-1)?.text ?? null;
  const { items, new: fresh } = newItems(it, r.input.summary);
  return {
    file: basename(file),
    prompt: r.prompt,
    payload: r.input.ctx,
    followUpPayload: r.followUp,
    shared: scoreSession(r.input),
    corrected: scoreSession(r.input, corrections),
    followUp: { chars: cpLength(r.followUp), items, new: fresh, wrong: wrongItems(it, newest) },
  };
}

/** The shared scorer's line for one session. */
function sessionLine(file: string, r: SessionScore): string {
  const wrong = r.wrong.length > 0 ? `  [${r.wrong.slice(0, 3).map((x) => cpSlice(x, 40)).join("; ")}]` : "";
  return `${padRight(cpSlice(pyBasename(file), 40), 40)} ${padLeft(r.chars, 5)} chars, ${padLeft(r.items, 3)} items, ` +
    `new ${padLeft(r.new, 3)}, wrong ${padLeft(r.wrong.length, 2)}, needs ${r.have}/${r.needs} ${r.detail.join(" ")}` +
    wrong;
}

/** Sums of the scores. */
function totalsOf(scores: readonly SessionScore[]): Totals {
  const t: Totals = { n: 0, medianChars: 0, items: 0, new: 0, wrong: 0, needs: 0, have: 0, alone: 0, wrongByClass: {} };
  for (const s of scores) {
    t.n++;
    t.items += s.items;
    t.new += s.new;
    t.wrong += s.wrong.length;
    t.needs += s.needs;
    t.have += s.have;
    t.alone += s.alone;
    for (const w of s.wrong) t.wrongByClass[wrongClass(w)] = (t.wrongByClass[wrongClass(w)] ?? 0) + 1;
  }
  const chars = scores.map((s) => s.chars).sort((a, b) => a - b);
  t.medianChars = chars.length === 0 ? 0 : chars[Math.floor(chars.length / 2)];
  return t;
}

/** The shared scorer's totals line. */
function totalsLine(t: Totals): string {
  const n = Math.max(t.items, 1);
  return `sessions ${t.n}, median ${t.medianChars} chars: new ${t.new}/${t.items} = ${pyFixed(t.new / n)}, ` +
    `wrong ${t.wrong} (${pyFixed(t.wrong / n)} per item), needs met ${t.have}/${t.needs} = ` +
    `${pyFixed(t.have / Math.max(t.needs, 1))} (summary alone ${t.alone}/${t.needs})`;
}

function byClass(t: Totals): string {
  const parts = Object.entries(t.wrongByClass).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return parts.length === 0 ? "none" : parts.map(([k, v]) => `${k} ${v}`).join(", ");
}

/** What one correction changes against the shared scoring, on the same payloads. */
interface Effect {
  name: string;
  /** Sessions whose line changes. */
  sessions: string[];
  /** Sessions where a need looks for something else with the same outcome. */
  rekeyed: string[];
  have: number;
  alone: number;
  needs: number;
  /** Needs whose outcome flips (yes to no or back). */
  flipped: number;
  wrongAdded: number;
  wrongRemoved: number;
}

/** How many of `a`'s items are not matched by one of `b`'s (multisets). */
function missingFrom(a: readonly string[], b: readonly string[]): number {
  const left = [...b];
  let n = 0;
  for (const x of a) {
    const i = left.indexOf(x);
    if (i === -1) n++;
    else left.splice(i, 1);
  }
  return n;
}

function effectOf(
  name: string,
  results: readonly SessionResult[],
  corrections: Corrections,
  inputs: ScoredInputs,
): Effect {
  const e: Effect = {
    name,
    sessions: [],
    rekeyed: [],
    have: 0,
    alone: 0,
    needs: 0,
    flipped: 0,
    wrongAdded: 0,
    wrongRemoved: 0,
  };
  for (const r of results) {
    const s = scoreSession(inputs.get(r.file)!, corrections);
    const short = r.file.replace(/\.jsonl(\.gz)?$/, "");
    if (sessionLine(r.file, s) !== sessionLine(r.file, r.shared)) e.sessions.push(short);
    else if (s.keys.join("\n") !== r.shared.keys.join("\n") || s.alone !== r.shared.alone) e.rekeyed.push(short);
    e.have += s.have - r.shared.have;
    e.alone += s.alone - r.shared.alone;
    e.needs += s.needs - r.shared.needs;
    e.flipped += missingFrom(s.detail, r.shared.detail);
    e.wrongAdded += missingFrom(s.wrong, r.shared.wrong);
    e.wrongRemoved += missingFrom(r.shared.wrong, s.wrong);
  }
  return e;
}

type ScoredInputs = Map<string, SessionInput>;

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

function list(sessions: readonly string[]): string {
  return sessions.length === 0 ? "none" : `${sessions.length}: ${sessions.join(", ")}`;
}

/** The markdown report; `run` lines (command, binary, commit, date) go under the title. */
function report(
  results: readonly SessionResult[],
  enabled: readonly CorrectionName[],
  effects: readonly Effect[],
  source: string,
  run: readonly string[] = [],
): string {
  const shared = totalsOf(results.map((r) => r.shared));
  const corrected = totalsOf(results.map((r) => r.corrected));
  const out = [
    "# Payload quality after a compaction",
    "",
    ...(run.length > 0 ? [...run.map((l) => `- ${l}`), ""] : []),
    `${results.length} sessions (${source}), each cut at its first \`compact_boundary\` and replayed through the ` +
    "binary in the client's order: PreCompact, SessionStart (compact), PostCompact (with the summary), the summary " +
    `rows appended, then UserPromptSubmit when the next row is a typed prompt (${
      results.filter((r) => r.prompt).length
    } sessions). The payload is what those hooks injected, scored against Claude Code's own summary.`,
    "",
    "## Shared scoring",
    "",
    "The shared definitions: wrong = items that are false or not what they claim; new = items the summary lacks; " +
    "needs = what the agent went on to need after the boundary (a re-run test or build command, a plan file, the " +
    "newest typed or queued message), met from the summary or the payload (the totals line also counts those met " +
    "by the summary alone).",
    "",
    "```text",
    ...results.map((r) => sessionLine(r.file, r.shared)),
    totalsLine(shared),
    "```",
    "",
    `Wrong by class: ${byClass(shared)}.`,
    "",
    "## Corrected scoring",
    "",
    "The same payloads, scored with these corrections to the shared definitions " +
    "(`--without NAME` leaves one out):",
    "",
    ...CORRECTION_NAMES.map((n, i) =>
      `- ${"abcd"[i]}. \`${n}\`${enabled.includes(n) ? "" : " (left out)"}: ${CORRECTION_TEXT[n]}`
    ),
    "- e. `custom-slash`: no correction: slash commands the user typed stay typed messages, settings commands " +
    "and `/compact` do not, as in the shared rules.",
    "",
    "```text",
    ...results.map((r) => sessionLine(r.file, r.corrected)),
    totalsLine(corrected),
    "```",
    "",
    `Wrong by class: ${byClass(corrected)}.`,
    "",
    "What each correction changes against the shared scoring, alone and all together:",
    "",
    "| correction | needs met | summary alone | needs | needs flipped | wrong items added / removed | " +
    "sessions changed | needs looked up differently, same line |",
    "|---|---:|---:|---:|---:|---:|---|---|",
    ...effects.map((e) =>
      `| ${e.name} | ${signed(e.have)} | ${signed(e.alone)} | ${signed(e.needs)} | ${e.flipped} | ` +
      `+${e.wrongAdded} / -${e.wrongRemoved} | ${list(e.sessions)} | ${list(e.rekeyed)} |`
    ),
    "",
    ...followUpSection(results),
  ];
  return out.join("\n") + "\n";
}

function followUpSection(results: readonly SessionResult[]): string[] {
  const f = results.map((r) => r.followUp);
  const chars = f.map((x) => x.chars).sort((a, b) => a - b);
  const sum = (pick: (x: FollowUp) => number) => f.reduce((a, x) => a + pick(x), 0);
  const classes: Record<string, number> = {};
  for (const x of f) for (const w of x.wrong) classes[wrongClass(w)] = (classes[wrongClass(w)] ?? 0) + 1;
  const spoke = f.filter((x) => x.chars > 0).length;
  return [
    `## Follow-up: a synthetic first prompt ("${FOLLOW_UP_PROMPT}")`,
    "",
    "Every session replayed again in a fresh state directory (same hooks, then the boundary row itself and the " +
    `summary rows appended, as the client writes them), then UserPromptSubmit with the prompt "${FOLLOW_UP_PROMPT}". ` +
    "Only that prompt's output is counted here, apart from the figures above: its characters, its items, how many " +
    'the summary lacks (the same "new" rule) and its wrong items (the shared rules).',
    "",
    "```text",
    ...results.map((r) => {
      const x = r.followUp;
      const wrong = x.wrong.length > 0 ? `  [${x.wrong.slice(0, 3).map((w) => cpSlice(w, 40)).join("; ")}]` : "";
      return `${padRight(cpSlice(r.file, 40), 40)} ${padLeft(x.chars, 5)} chars, ${padLeft(x.items, 3)} items, ` +
        `new ${padLeft(x.new, 3)}, wrong ${padLeft(x.wrong.length, 2)}${wrong}`;
    }),
    `sessions ${f.length}, prompt output in ${spoke}, median ${
      chars.length === 0 ? 0 : chars[Math.floor(chars.length / 2)]
    } chars (total ${sum((x) => x.chars)}): items ${sum((x) => x.items)}, new ${sum((x) => x.new)}/${
      sum((x) => x.items)
    }, wrong ${sum((x) => x.wrong.length)}`,
    "```",
    "",
    `Wrong by class: ${
      Object.keys(classes).length === 0 ? "none" : Object.entries(classes).map(([k, v]) => `${k} ${v}`).join(", ")
    }.`,
  ];
}

/** The command's arguments. */
interface Args {
  bin: string;
  /** Score Codex CLI rollouts (bench/_codex_replay.ts) instead of Claude Code transcripts. */
  codex?: boolean;
  json?: string;
  md?: string;
  out?: string;
  without: CorrectionName[];
  files: string[];
}

function parseCli(argv: readonly string[]): Args {
  const a: Args = { bin: join(ROOT, "dist", "rehydrate"), without: [], files: [] };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`Missing value after ${v}`);
      return next;
    };
    if (v === "--bin") a.bin = resolve(value());
    else if (v === "--codex") a.codex = true;
    else if (v === "--json") a.json = value();
    else if (v === "--md") a.md = value();
    else if (v === "--out") a.out = value();
    else if (v === "--without") {
      for (const n of value().split(",")) {
        if (!(CORRECTION_NAMES as readonly string[]).includes(n)) {
          throw new Error(`Unknown correction ${n}: one of ${CORRECTION_NAMES.join(", ")}`);
        }
        a.without.push(n as CorrectionName);
      }
    } else if (v.startsWith("--")) throw new Error(`Unknown option ${v}`);
    else a.files.push(v);
  }
  return a;
}

function git(args: string[]): string {
  const p = spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  return p.status === 0 ? p.stdout.trim() : "unknown";
}

function main(argv: readonly string[]): void {
  const args = parseCli(argv);
  if (args.codex) return mainCodex(args, argv);
  let files = args.files;
  let source = files.length === 0 ? "tests/fixtures/detection-dev" : `${files.length} files`;
  if (files.length === 0) {
    if (!existsSync(DEV_SET)) {
      console.log("tests/fixtures/detection-dev is missing: there are no sessions to score.");
      return;
    }
    files = readdirSync(DEV_SET).filter((n) => n.endsWith(".jsonl.gz")).sort().map((n) => join(DEV_SET, n));
    source = "tests/fixtures/detection-dev";
  }
  if (!existsSync(args.bin)) {
    throw new Error(`Cannot find ${args.bin}: build it with npx bun build.ts --only rehydrate`);
  }
  const enabled = CORRECTION_NAMES.filter((n) => !args.without.includes(n));
  const corrections = correctionsOf(enabled);
  const results: SessionResult[] = [];
  const inputs: ScoredInputs = new Map();
  for (const file of files) {
    const replayed = replayFile(args.bin, file);
    if (replayed === null) continue;
    const r = scoreReplayed(file, replayed, corrections);
    results.push(r);
    inputs.set(r.file, replayed.input);
  }
  const effects = [
    ...CORRECTION_NAMES.map((n) => effectOf(n, results, correctionsOf([n]), inputs)),
    effectOf("all of them", results, correctionsOf(CORRECTION_NAMES), inputs),
  ];
  const md = report(results, enabled, effects, source);
  process.stdout.write(md);
  if (args.md) writeFileSync(args.md, md);
  const version = spawnSync(args.bin, ["--version"], { encoding: "utf8" }).stdout?.trim() || "unknown";
  const meta = {
    command: ["npx", "bun", "bench/payload-quality.ts", ...argv].join(" "),
    version,
    commit: git(["rev-parse", "--short", "HEAD"]),
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
  };
  if (args.out) {
    const shown = args.bin === join(ROOT, "dist", "rehydrate") ? "dist/rehydrate" : args.bin;
    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(
      args.out,
      report(results, enabled, effects, source, [
        `Command: \`${meta.command}\``,
        `Binary: ${shown}, \`--version\`: ${meta.version}`,
        `Commit: ${meta.commit}`,
        `Date: ${meta.date}`,
      ]),
    );
  }
  if (args.json) {
    writeFileSync(
      args.json,
      JSON.stringify(
        {
          ...meta,
          corrections: enabled,
          effects,
          totals: {
            shared: totalsOf(results.map((r) => r.shared)),
            corrected: totalsOf(results.map((r) => r.corrected)),
          },
          sessions: results,
        },
        null,
        1,
      ) + "\n",
    );
  }
}

/**
 * `--codex`: every compaction of the Codex rollouts (default: the captured ones) replayed in
 * Codex's order (bench/_codex_replay.ts) and scored with the shared rules against what the
 * compacted context carries in words (Codex's summary and the user messages it keeps).
 */
function mainCodex(args: Args, argv: readonly string[]): void {
  const files = args.files.length > 0
    ? args.files
    : readdirSync(CODEX_SET).filter((n) => n.endsWith(".jsonl")).sort().map((n) => join(CODEX_SET, n));
  if (!existsSync(args.bin)) {
    throw new Error(`Cannot find ${args.bin}: build it with npx bun build.ts --only rehydrate`);
  }
  const lines: string[] = [];
  const scores: SessionScore[] = [];
  const payloads: { name: string; payload: string }[] = [];
  for (const file of files) {
    for (const session of codexSessions(file)) {
      const ctx = replayCodex(session, (name, input, env) => hook(args.bin, name, input, env, ["--agent", "codex"]));
      const score = scoreSession({ rows: session.rows, cut: session.cut, ctx, summary: session.summary });
      scores.push(score);
      lines.push(sessionLine(session.name, score));
      payloads.push({ name: session.name, payload: ctx });
    }
  }
  const version = spawnSync(args.bin, ["--version"], { encoding: "utf8" }).stdout?.trim() || "unknown";
  const shown = args.bin === join(ROOT, "dist", "rehydrate") ? "dist/rehydrate" : args.bin;
  const t = totalsOf(scores);
  const md = [
    "# Payload quality after a compaction: Codex CLI",
    "",
    `- Command: \`${["npx", "bun", "bench/payload-quality.ts", ...argv].join(" ")}\``,
    `- Binary: ${shown}, \`--version\`: ${version}`,
    `- Commit: ${git(["rev-parse", "--short", "HEAD"])}`,
    `- Date: ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}`,
    "",
    `${scores.length} compactions (${
      args.files.length > 0 ? `${files.length} files` : "tests/fixtures/codex-0.171.0/rollouts"
    }), ` +
    "each replayed in Codex's order: PreCompact, the rollout's \`compacted\` row appended, SessionStart (compact); " +
    "the payload is SessionStart's context (under Codex there is no follow-up prompt), scored with the shared rules " +
    "against what the compacted context carries in words: Codex's summary and the user messages it keeps word for word.",
    "",
    "```text",
    ...lines,
    totalsLine(t),
    "```",
    "",
    `Wrong by class: ${byClass(t)}.`,
    "",
  ].join("\n");
  process.stdout.write(md);
  if (args.out) {
    mkdirSync(dirname(args.out), { recursive: true });
    writeFileSync(args.out, md);
  }
  if (args.json) writeFileSync(args.json, JSON.stringify({ scores, payloads }, null, 2) + "\n");
}

if ((import.meta as { main?: boolean }).main) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  }
}
