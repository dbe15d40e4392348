/**
 * Working-set quality on real transcripts: cut each session where it was compacted (and, as a
 * separate table, at synthetic points), run the detection on the prefix only, and compare its
 * top 10 with the files the agent touched in its next 20 tool calls. The baseline is "the 10
 * most recently touched files before the cut".
 *
 * Run: `npx bun bench/detection-quality.ts` (prints markdown tables): first the development set
 * (tests/fixtures/detection-dev, 30 real sessions with a compaction, gzip JSONL), then the public
 * and captured transcripts (tests/fixtures/public, tests/fixtures/claude-code-2.1.197). The unit
 * test tests/unit/detection_quality.test.ts imports {@linkcode evaluateDetection} and asserts that
 * the detection beats the baseline on the public and captured transcripts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { detectWorkspace } from "../lib/detect/workspace.ts";
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
  return [...filesIn(join(FIXTURES, "public"), ".jsonl"), ...filesIn(join(FIXTURES, "claude-code-2.1.197", "transcripts"), ".jsonl")];
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
        if (r && r.type === "system" && r.subtype === "compact_boundary" && r.isSidechain !== true) cuts.push({ line: i, kind: "boundary" });
      });
      for (let k = SYNTHETIC_EVERY; k < calls.length; k += SYNTHETIC_EVERY) cuts.push({ line: calls[k].line, kind: "synthetic" });
      for (const cut of cuts) {
        const before = calls.filter((c) => c.line < cut.line);
        const after = calls.filter((c) => c.line >= cut.line).slice(0, HORIZON);
        const targets = new Set(touched(after));
        if (targets.size === 0) {
          result.skipped.push({ file: name, kind: cut.kind, reason: `no file touched in the ${HORIZON} calls after line ${cut.line + 1}` });
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
  return { ours: sum((c) => c.ours), baseline: sum((c) => c.baseline), targets: cases.reduce((a, c) => a + c.targets, 0) };
}

/** The markdown report. */
export function formatEvaluation(e: Evaluation): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const table = (title: string, cases: readonly CaseResult[]) => {
    const out = [`### ${title}`, "", "| transcript | calls before cut | targets (seen before) | ours P | ours R | baseline P | baseline R |", "|---|---:|---:|---:|---:|---:|---:|"];
    for (const c of cases) {
      out.push(`| ${c.file} | ${c.callsBefore} | ${c.targets} (${c.targetsSeenBefore}) | ${pct(c.ours.precision)} (${c.ours.hits}/${c.ours.size}) | ${pct(c.ours.recall)} | ${pct(c.baseline.precision)} (${c.baseline.hits}/${c.baseline.size}) | ${pct(c.baseline.recall)} |`);
    }
    const t = totals(cases);
    out.push(`| **all ${cases.length}** | | ${t.targets} | **${pct(t.ours.precision)}** | **${pct(t.ours.recall)}** | ${pct(t.baseline.precision)} | ${pct(t.baseline.recall)} |`);
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
    `Skipped cuts: ${e.skipped.length === 0 ? "none" : e.skipped.map((s) => `${s.file} (${s.kind}: ${s.reason})`).join("; ")}`,
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
      const call: Call = { name: String(b.name), input: typeof b.input === "object" && b.input !== null ? b.input : {}, line };
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
  return { hits, size: list.length, precision: list.length === 0 ? 0 : hits / list.length, recall: hits / targets.size };
}

if ((import.meta as { main?: boolean }).main) {
  const dev = devSetFiles();
  const pub = fixtureFiles();
  console.log([
    `## Development set: tests/fixtures/detection-dev (${dev.length} sessions)`,
    "",
    formatEvaluation(evaluateDetection(dev)),
    "",
    `## Public and captured transcripts: tests/fixtures/public, tests/fixtures/claude-code-2.1.197 (${pub.length} transcripts)`,
    "",
    formatEvaluation(evaluateDetection(pub)),
  ].join("\n"));
}
