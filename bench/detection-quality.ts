/**
 * Working-set quality on real transcripts: cut each session where it was compacted (and, as a
 * separate table, at synthetic points), run the detection on the prefix only, and compare its
 * top 10 with the files the agent touched next. The baseline is "the most recently touched files
 * before the cut".
 *
 * Run: `npx bun bench/detection-quality.ts` (prints markdown tables):
 *
 * - the development set (tests/fixtures/detection-dev, 30 real sessions with a compaction, gzip
 *   JSONL), cut at its first compaction, as issue #24 scores it: the truth is the distinct files
 *   of the first 20 main-chain file tool calls after the boundary; recall@10, precision@10 and
 *   recall@20 against the baseline, overall and per session, and the same against the "resume"
 *   truth (the files touched after the boundary before the user's next prompt);
 * - with `--rules`, the development-set recall@10 with each ranking rule removed and added alone
 *   (the table of docs/detection.md);
 * - the public and captured transcripts (tests/fixtures/public, tests/fixtures/claude-code-2.1.197)
 *   cut at every compaction and every 20th tool call, against the files of the next 20 calls.
 *
 * tests/unit/detect/detection_quality.test.ts asserts that the detection beats the baseline on the public
 * and captured transcripts; tests/unit/detect/quality_floor.test.ts keeps a floor on five
 * development-set sessions ({@linkcode evaluateDevSet}).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { detectWorkspace } from "../lib/detect/workspace.ts";
import {
  WORKING_SET_MIN_SHARE,
  WORKING_SET_RULES,
  type WorkingSetOptions,
  type WorkingSetRule,
} from "../lib/detect/working_set.ts";
import { resolvePath } from "../lib/detect/_paths.ts";

/** Tools whose file path counts as "touched". */
const TOUCH_TOOLS: ReadonlySet<string> = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit"]);
/** Tool calls after the cut whose files are the target. */
export const HORIZON = 20;
/** Size of the compared lists. */
export const TOP = 10;
/** Synthetic cuts every this many main-chain tool calls. */
export const SYNTHETIC_EVERY = 20;

/** Precision and recall of one list against one target set. */
export interface Score {
  hits: number;
  size: number;
  precision: number;
  recall: number;
}

/** One cut of one transcript. */
export interface CaseResult {
  file: string;
  /** `boundary` (a real compaction) or `synthetic`. */
  kind: "boundary" | "synthetic";
  /** Main-chain tool calls before the cut. */
  callsBefore: number;
  /** Distinct files touched in the next {@linkcode HORIZON} calls. */
  targets: number;
  /** Targets touched before the cut too. */
  targetsSeenBefore: number;
  ours: Score;
  baseline: Score;
}

/** Both tables, plus the cuts skipped because nothing was touched after them. */
export interface Evaluation {
  boundary: CaseResult[];
  synthetic: CaseResult[];
  skipped: { file: string; kind: string; reason: string }[];
}

interface Call {
  name: string;
  input: Record<string, unknown>;
  line: number;
  cwd?: string;
}

/** The in-repository fixtures (tests/fixtures). */
const FIXTURES = join(import.meta.dirname ?? ".", "..", "tests", "fixtures");

/** Files of `dir` ending in `ext`, sorted; a missing or empty folder is an error, never an empty set. */
function filesIn(dir: string, ext: string): string[] {
  const names = readdirSync(dir).filter((n) => n.endsWith(ext)).sort();
  if (names.length === 0) throw new Error(`no *${ext} transcripts in ${dir}`);
  return names.map((n) => join(dir, n));
}

/** The transcripts the unit test evaluates: the public fixtures and the 2.1.197 captures. */
export function fixtureFiles(): string[] {
  return [
    ...filesIn(join(FIXTURES, "public"), ".jsonl"),
    ...filesIn(join(FIXTURES, "claude-code-2.1.197", "transcripts"), ".jsonl"),
  ];
}

/** The development set: 30 real sessions cut after their first compaction (gzip JSONL). */
export function devSetFiles(): string[] {
  return filesIn(join(FIXTURES, "detection-dev"), ".jsonl.gz");
}

/** A transcript's text; `.gz` files are gunzipped. */
function readTranscript(file: string): string {
  return file.endsWith(".gz") ? new TextDecoder().decode(gunzipSync(readFileSync(file))) : readFileSync(file, "utf8");
}

/** Runs every cut of every file. */
export function evaluateDetection(files: readonly string[] = fixtureFiles()): Evaluation {
  const result: Evaluation = { boundary: [], synthetic: [], skipped: [] };
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-detect-"));
  try {
    for (const file of files) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      const lines = readTranscript(file).split("\n");
      const rows = lines.map((l) => {
        try {
          const v = JSON.parse(l);
          return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
        } catch {
          return undefined;
        }
      });
      const calls = forwardCalls(rows);
      const cuts: { line: number; kind: "boundary" | "synthetic" }[] = [];
      rows.forEach((r, i) => {
        if (r && r.type === "system" && r.subtype === "compact_boundary" && r.isSidechain !== true) {
          cuts.push({ line: i, kind: "boundary" });
        }
      });
      for (let k = SYNTHETIC_EVERY; k < calls.length; k += SYNTHETIC_EVERY) {
        cuts.push({ line: calls[k].line, kind: "synthetic" });
      }
      for (const cut of cuts) {
        const before = calls.filter((c) => c.line < cut.line);
        const after = calls.filter((c) => c.line >= cut.line).slice(0, HORIZON);
        const targets = new Set(touched(after));
        if (targets.size === 0) {
          result.skipped.push({
            file: name,
            kind: cut.kind,
            reason: `no file touched in the ${HORIZON} calls after line ${cut.line + 1}`,
          });
          continue;
        }
        const baselineList: string[] = [];
        for (const p of touched(before).reverse()) {
          if (!baselineList.includes(p)) baselineList.push(p);
          if (baselineList.length >= TOP) break;
        }
        const prefix = join(tmp, `${name}.${cut.line}.jsonl`);
        writeFileSync(prefix, lines.slice(0, cut.line).join("\n") + "\n");
        const ours = detectWorkspace(prefix, { workingSetSize: TOP }).workingSet.map((w) => w.path);
        const seenBefore = new Set(touched(before));
        const entry: CaseResult = {
          file: name,
          kind: cut.kind,
          callsBefore: before.length,
          targets: targets.size,
          targetsSeenBefore: [...targets].filter((t) => seenBefore.has(t)).length,
          ours: score(ours, targets),
          baseline: score(baselineList, targets),
        };
        (cut.kind === "boundary" ? result.boundary : result.synthetic).push(entry);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return result;
}

/** Sums hits, list sizes and targets over cases (micro average). */
export function totals(cases: readonly CaseResult[]): { ours: Score; baseline: Score; targets: number } {
  const sum = (pick: (c: CaseResult) => Score) => {
    let hits = 0, size = 0, targets = 0;
    for (const c of cases) {
      hits += pick(c).hits;
      size += pick(c).size;
      targets += c.targets;
    }
    return { hits, size, precision: size === 0 ? 0 : hits / size, recall: targets === 0 ? 0 : hits / targets };
  };
  return {
    ours: sum((c) => c.ours),
    baseline: sum((c) => c.baseline),
    targets: cases.reduce((a, c) => a + c.targets, 0),
  };
}

/** The markdown report. */
export function formatEvaluation(e: Evaluation): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const table = (title: string, cases: readonly CaseResult[]) => {
    const out = [
      `### ${title}`,
      "",
      "| transcript | calls before cut | targets (seen before) | ours P | ours R | baseline P | baseline R |",
      "|---|---:|---:|---:|---:|---:|---:|",
    ];
    for (const c of cases) {
      out.push(
        `| ${c.file} | ${c.callsBefore} | ${c.targets} (${c.targetsSeenBefore}) | ${
          pct(c.ours.precision)
        } (${c.ours.hits}/${c.ours.size}) | ${pct(c.ours.recall)} | ${
          pct(c.baseline.precision)
        } (${c.baseline.hits}/${c.baseline.size}) | ${pct(c.baseline.recall)} |`,
      );
    }
    const t = totals(cases);
    out.push(
      `| **all ${cases.length}** | | ${t.targets} | **${pct(t.ours.precision)}** | **${pct(t.ours.recall)}** | ${
        pct(t.baseline.precision)
      } | ${pct(t.baseline.recall)} |`,
    );
    return out.join("\n");
  };
  return [
    `Working set (top ${TOP}) vs the files touched (Read/Write/Edit/MultiEdit/NotebookEdit) in the next ${HORIZON} tool calls.`,
    `Baseline: the ${TOP} most recently touched files before the cut. P = precision, R = recall (summed over cases on the last row).`,
    "",
    table("Real compactions (cut at each main-chain compact_boundary)", e.boundary),
    "",
    table(`Synthetic cuts (every ${SYNTHETIC_EVERY}th main-chain tool call; not real compactions)`, e.synthetic),
    "",
    `Skipped cuts: ${
      e.skipped.length === 0 ? "none" : e.skipped.map((s) => `${s.file} (${s.kind}: ${s.reason})`).join("; ")
    }`,
  ].join("\n");
}

function forwardCalls(rows: readonly (Record<string, unknown> | undefined)[]): Call[] {
  const out: Call[] = [];
  const seen = new Set<string>();
  rows.forEach((r, line) => {
    if (!r || r.type !== "assistant" || r.isSidechain === true) return;
    const content = (r.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (typeof b !== "object" || b === null || b.type !== "tool_use" || seen.has(b.id)) continue;
      seen.add(b.id);
      const call: Call = {
        name: String(b.name),
        input: typeof b.input === "object" && b.input !== null ? b.input : {},
        line,
      };
      if (typeof r.cwd === "string") call.cwd = r.cwd;
      out.push(call);
    }
  });
  return out;
}

function touched(calls: readonly Call[]): string[] {
  const out: string[] = [];
  for (const c of calls) {
    if (!TOUCH_TOOLS.has(c.name)) continue;
    const p = c.input.file_path ?? c.input.notebook_path;
    if (typeof p === "string" && p !== "") out.push(resolvePath(p, c.cwd));
  }
  return out;
}

function score(list: readonly string[], targets: ReadonlySet<string>): Score {
  const hits = list.filter((p) => targets.has(p)).length;
  return {
    hits,
    size: list.length,
    precision: list.length === 0 ? 0 : hits / list.length,
    recall: hits / targets.size,
  };
}

// --- The development set, scored as issue #24 scores it -------------------------------------

/** The larger list compared against the truth (recall@20). */
export const WIDE = 20;

/** One development-set session cut at its first compaction. */
export interface DevCase {
  file: string;
  /** Main-chain tool calls before the boundary. */
  callsBefore: number;
  /** Distinct files of the first {@linkcode HORIZON} main-chain file tool calls after the boundary. */
  truth: string[];
  /** Files touched after the boundary before the user's next prompt; empty when the user spoke first. */
  resume: string[];
  /** Our working set, best first, at most {@linkcode WIDE}. */
  ours: string[];
  /** The {@linkcode WIDE} most recently touched files before the boundary, newest first. */
  baseline: string[];
}

/** recall@10, precision@10 and recall@20 of one list against one truth. */
export interface DevScore {
  hits10: number;
  size10: number;
  hits20: number;
  truth: number;
}

/** Options of {@linkcode evaluateDevSet}. */
export interface EvaluateDevSetOptions {
  /** Ranking options for the working set (rules switched off, minimum share). Default: the product's. */
  workingSet?: Pick<WorkingSetOptions, "rules" | "minShare">;
}

/**
 * Cuts each session at its first main-chain `compact_boundary`, runs `detectWorkspace` on the rows
 * before it, and keeps its top {@linkcode WIDE} with the truths and the baseline. Paths are
 * compared in normal form (`resolvePath` against the row's cwd). Sessions without a boundary or
 * without file work after it are left out.
 */
export function evaluateDevSet(
  files: readonly string[] = devSetFiles(),
  options: EvaluateDevSetOptions = {},
): DevCase[] {
  const out: DevCase[] = [];
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-dev-"));
  try {
    for (const file of files) {
      const name = file.slice(file.lastIndexOf("/") + 1);
      const lines = readTranscript(file).split("\n");
      const rows = lines.map(parseObject);
      const cut = rows.findIndex((r) =>
        r !== undefined && r.type === "system" && r.subtype === "compact_boundary" && r.isSidechain !== true
      );
      if (cut === -1) continue;
      const calls = forwardCalls(rows);
      const before = calls.filter((c) => c.line < cut);
      const after = calls.filter((c) => c.line > cut);
      const truth = distinct(touched(after).slice(0, HORIZON));
      if (truth.length === 0) continue;
      const prompt = rows.findIndex((r, i) => i > cut && r !== undefined && isPrompt(r));
      const resume = distinct(touched(after.filter((c) => prompt === -1 || c.line < prompt)));
      const prefix = join(tmp, `${name}.jsonl`);
      writeFileSync(prefix, lines.slice(0, cut).join("\n") + "\n");
      const ours = detectWorkspace(prefix, { workingSetSize: WIDE, workingSet: options.workingSet }).workingSet.map((
        w,
      ) => w.path);
      out.push({
        file: name,
        callsBefore: before.length,
        truth,
        resume,
        ours,
        baseline: distinct(touched(before).reverse()).slice(0, WIDE),
      });
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

/** The scores of `list` against `truth`. */
export function devScore(list: readonly string[], truth: readonly string[]): DevScore {
  const top = list.slice(0, TOP);
  const set = new Set(truth);
  return {
    hits10: top.filter((p) => set.has(p)).length,
    size10: top.length,
    hits20: list.slice(0, WIDE).filter((p) => set.has(p)).length,
    truth: truth.length,
  };
}

/** Summed scores (micro average): recall = hits / truth, precision = hits / listed. */
export function sumScores(scores: readonly DevScore[]): DevScore {
  const t: DevScore = { hits10: 0, size10: 0, hits20: 0, truth: 0 };
  for (const s of scores) {
    t.hits10 += s.hits10;
    t.size10 += s.size10;
    t.hits20 += s.hits20;
    t.truth += s.truth;
  }
  return t;
}

/** The development-set report: overall, then per session, for the compaction truth and the resume truth. */
export function formatDevSet(cases: readonly DevCase[]): string {
  const ratio = (a: number, b: number) => b === 0 ? "-" : `${(a / b).toFixed(2)}`;
  const cells = (s: DevScore) =>
    `${ratio(s.hits10, s.truth)} (${s.hits10}/${s.truth}) | ${ratio(s.hits10, s.size10)} | ${ratio(s.hits20, s.truth)}`;
  const head = "| ours R@10 | P@10 | R@20 | baseline R@10 | P@10 | R@20 |";
  const rule = "|---:|---:|---:|---:|---:|---:|";
  const total = (pick: (c: DevCase) => string[]) => {
    const kept = cases.filter((c) => pick(c).length > 0);
    return `| ${kept.length} | ${cells(sumScores(kept.map((c) => devScore(c.ours, pick(c)))))} | ${
      cells(sumScores(kept.map((c) => devScore(c.baseline, pick(c)))))
    } |`;
  };
  const out = [
    `Truth: the distinct files of the first ${HORIZON} main-chain file tool calls after the first compact_boundary;`,
    `resume truth: the files touched after it before the user's next prompt (sessions where the user spoke first are left out).`,
    `R@10 = hits in the top ${TOP} / truth, P@10 = hits / files listed (at most ${TOP}), R@20 = hits in the top ${WIDE} / truth;`,
    `baseline: the most recently touched files before the cut. Sums over sessions.`,
    "",
    `| truth | sessions ${head}`,
    `|---|---:${rule}`,
    `| first ${HORIZON} file calls ${total((c) => c.truth)}`,
    `| resume ${total((c) => c.resume)}`,
    "",
    `| session | calls before | truth (resume) ${head} resume: ours R@10 | baseline R@10 |`,
    `|---|---:|---:${rule}---:|---:|`,
  ];
  for (const c of cases) {
    const resume = c.resume.length === 0
      ? "- | -"
      : `${ratio(devScore(c.ours, c.resume).hits10, c.resume.length)} | ${
        ratio(devScore(c.baseline, c.resume).hits10, c.resume.length)
      }`;
    out.push(
      `| ${c.file} | ${c.callsBefore} | ${c.truth.length} (${c.resume.length}) | ${
        cells(devScore(c.ours, c.truth))
      } | ${cells(devScore(c.baseline, c.truth))} | ${resume} |`,
    );
  }
  return out.join("\n");
}

/**
 * The development-set recall@10 with all rules, with each rule removed, and with each rule alone
 * (added to none), plus `fill`: the minimum share at {@linkcode WORKING_SET_MIN_SHARE} instead of
 * the earlier 0.2.
 */
export function formatRuleTable(files: readonly string[] = devSetFiles()): string {
  const rules: (WorkingSetRule | "fill")[] = [...WORKING_SET_RULES, "fill"];
  const options = (on: (r: WorkingSetRule | "fill") => boolean): EvaluateDevSetOptions => ({
    workingSet: {
      rules: Object.fromEntries(WORKING_SET_RULES.map((r) => [r, on(r)])),
      minShare: on("fill") ? WORKING_SET_MIN_SHARE : 0.2,
    },
  });
  const recall = (o: EvaluateDevSetOptions) => {
    const t = sumScores(evaluateDevSet(files, o).map((c) => devScore(c.ours, c.truth)));
    return `${t.hits10}/${t.truth} = ${(t.hits10 / t.truth).toFixed(2)}`;
  };
  const out = [
    `| rule | all rules but this one | no rule but this one |`,
    `|---|---:|---:|`,
    `| (all rules) | ${recall(options(() => true))} | |`,
    `| (no rule) | | ${recall(options(() => false))} |`,
  ];
  for (const r of rules) {
    out.push(`| \`${r}\` | ${recall(options((x) => x !== r))} | ${recall(options((x) => x === r))} |`);
  }
  return out.join("\n");
}

const NOT_A_PROMPT = [
  "<command-",
  "<local-command-",
  "<task-notification>",
  "<system-reminder>",
  "<bash-",
  "[Request interrupted",
  "Caveat:",
];

/** A prompt the user typed: a main-chain user row with text, not meta, not a summary, not a command echo. */
function isPrompt(r: Record<string, unknown>): boolean {
  if (r.type !== "user" || r.isSidechain === true || r.isMeta === true || r.isCompactSummary === true) return false;
  const content = (r.message as { content?: unknown } | undefined)?.content;
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    for (const b of content) {
      if (typeof b === "object" && b !== null && b.type === "text" && typeof b.text === "string") text += b.text;
    }
  }
  const head = text.trimStart();
  return head !== "" && !NOT_A_PROMPT.some((p) => head.startsWith(p));
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(line);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

function distinct(list: readonly string[]): string[] {
  return [...new Set(list)];
}

if ((import.meta as { main?: boolean }).main) {
  const dev = devSetFiles();
  const pub = fixtureFiles();
  const parts = [
    `## Development set: tests/fixtures/detection-dev (${dev.length} sessions), cut at the first compaction`,
    "",
    formatDevSet(evaluateDevSet(dev)),
  ];
  if (process.argv.includes("--rules")) {
    parts.push("", "## Development set: recall@10 by ranking rule", "", formatRuleTable(dev));
  }
  parts.push(
    "",
    `## Public and captured transcripts: tests/fixtures/public, tests/fixtures/claude-code-2.1.197 (${pub.length} transcripts)`,
    "",
    formatEvaluation(evaluateDetection(pub)),
  );
  console.log(parts.join("\n"));
}
