/**
 * The benchmark's results: their shape, the issue's targets evaluated on them, the markdown report
 * and the hand-written SVG chart. Pure functions over the results object (no runtime APIs), so the
 * unit tests run them under Bun and Deno and `bun bench/report.ts results/latest.json` re-renders a
 * report without re-measuring.
 */
import type { PairedRatio, Summary } from "./stats.ts";
import { pairedRatio, ratio } from "./stats.ts";

/** One command's numbers on one case. */
export interface CommandResult {
  /** The command line (paths relative to the repository). */
  argv: string[];
  /** Wall time of the counted runs, in ms. */
  wall: Summary;
  /** The counted runs' wall times in ms, in run order. */
  samples: number[];
  /** Median peak RSS in KB over the RSS runs (GNU time's %M), or null. */
  rssKB: number | null;
  /** Exit code of the last timed run. */
  exitCode: number | null;
  /** Bytes on stdout of the last timed run. */
  stdoutBytes: number;
  /** Start of stderr of the last timed run, when any. */
  stderr?: string;
}

/** One hook on one input. */
export interface CaseResult {
  hook: string;
  input: string;
  /** By command id: floor, rehydrate, multicall, no-bytecode, bun, deno, node, python. */
  commands: Record<string, CommandResult>;
}

/** Peer output compared with ours, in substance. */
export interface HonestyCheck {
  hook: string;
  input: string;
  command: string;
  ok: boolean;
  problems: string[];
  summary: string;
  exitCode: number | null;
}

/** One of the issue's targets. */
export interface TargetResult {
  name: string;
  pass: boolean;
  detail: string;
}

/**
 * Instructions each command executed (valgrind callgrind, the fewest of `runs` runs), per hook
 * case on one input: steady where wall times are not, and blind to the kernel's part.
 */
export interface InstructionCounts {
  /** The input's id, e.g. `200mb`. */
  input: string;
  runs: number;
  /** Per case: command id (`floor`, `rehydrate`, `multicall`) to instructions. */
  cases: { hook: string; counts: Record<string, number> }[];
}

/** Everything bench/run.ts writes to results/<name>.json. */
export interface BenchResults {
  schema: 1;
  date: string;
  mode: "quick" | "full";
  durationSeconds: number;
  machine: { cpu: string; cores: number; memoryGB: number; os: string };
  versions: Record<string, string | null>;
  settings: Record<string, unknown> & { runs: number; warmup: number; rssRuns: number };
  inputs: {
    id: string;
    label: string;
    mb: number;
    bytes: number;
    path: string;
    generated: boolean;
    generateSeconds?: number;
  }[];
  cases: CaseResult[];
  honesty: HonestyCheck[];
  notes: string[];
  targets: TargetResult[];
  /** Absent in quick runs and where valgrind is missing. */
  instructions?: InstructionCounts | null;
}

/** Columns of the tables, in order, with their headings. */
export const COLUMNS: readonly [string, string][] = [
  ["floor", "floor"],
  ["rehydrate", "rehydrate"],
  ["multicall", "multicall"],
  ["no-bytecode", "no bytecode"],
  ["bun", "bun src"],
  ["deno", "deno src"],
  ["node", "Node peer"],
  ["python", "Python peer"],
];

const LIMIT_FLOOR = 1.3;
const LIMIT_FLAT = 1.1;
const LIMIT_RSS = 1.2;
const LIMIT_NODE = 10;
const LIMIT_PYTHON = 15;

function fmt(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits);
}

function med(c: CaseResult, id: string): number | null {
  return c.commands[id]?.wall.median ?? null;
}

/** Where a command's per-round ratios to the floor stand against a limit. */
export interface PairedVerdict {
  ratio: PairedRatio;
  /** `within`: the whole 95 % interval at or under the limit; `over`: the whole of it above. */
  verdict: "within" | "over" | "undecided";
}

/**
 * The per-round ratio of command `id` to the floor on one case (see {@linkcode pairedRatio}) and
 * whether the run shows it within `limit`, over it, or cannot tell. `null` when the command and
 * the floor were not timed in the same rounds (the peers, capped at fewer runs on big inputs).
 *
 * @example
 * ```ts
 * const v = pairedVerdict(c, "rehydrate", 1.3);
 * if (v) console.log(v.verdict, v.ratio.lo, v.ratio.hi);
 * ```
 */
export function pairedVerdict(c: CaseResult, id: string, limit: number): PairedVerdict | null {
  const a = c.commands[id]?.samples;
  const b = c.commands.floor?.samples;
  const r = a && b ? pairedRatio(a, b) : null;
  if (r === null) return null;
  return { ratio: r, verdict: r.hi <= limit ? "within" : r.lo > limit ? "over" : "undecided" };
}

/**
 * The issue's targets, each PASS or FAIL with the numbers behind it. Only what was measured is
 * judged; a target without data (no peers, one size) fails with a detail saying so.
 *
 * @example
 * ```ts
 * for (const t of evaluateTargets(results)) console.log(t.pass ? "PASS" : "FAIL", t.name);
 * ```
 */
export function evaluateTargets(r: BenchResults): TargetResult[] {
  const out: TargetResult[] = [];
  const generated = r.inputs.filter((i) => i.generated).sort((a, b) => a.mb - b.mb);

  const floorRatios = r.cases.map((c) => ({ c, x: ratio(med(c, "rehydrate"), med(c, "floor")) })).filter((e) =>
    e.x !== null
  ) as { c: CaseResult; x: number }[];
  const badFloor = floorRatios.filter((e) => e.x > LIMIT_FLOOR).sort((a, b) => b.x - a.x);
  const worst = [...floorRatios].sort((a, b) => b.x - a.x)[0];
  out.push({
    name: `every hook's median within ${LIMIT_FLOOR}x the floor on every input`,
    pass: floorRatios.length > 0 && badFloor.length === 0,
    detail:
      `${floorRatios.length - badFloor.length} of ${floorRatios.length} cases within; worst ${
        worst ? `${worst.c.hook} on ${worst.c.input} ${worst.x.toFixed(2)}x` : "–"
      }` +
      (badFloor.length
        ? `; over: ${badFloor.slice(0, 6).map((e) => `${e.c.hook}@${e.c.input} ${e.x.toFixed(2)}x`).join(", ")}${
          badFloor.length > 6 ? ", ..." : ""
        }`
        : "") +
      pairedCounts(r.cases, LIMIT_FLOOR),
  });

  if (generated.length >= 2) {
    const small = generated[0];
    const big = generated[generated.length - 1];
    const hooks = [...new Set(r.cases.map((c) => c.hook))];
    const flat = hooks.map((h) => {
      const a = r.cases.find((c) => c.hook === h && c.input === small.id);
      const b = r.cases.find((c) => c.hook === h && c.input === big.id);
      // Each size is measured at another time, so drift between them is not cancelled by the
      // interleaving; the floor measured beside each one is, so compare the ratios to the floor.
      const x = a && b
        ? ratio(ratio(med(b, "rehydrate"), med(b, "floor")), ratio(med(a, "rehydrate"), med(a, "floor")))
        : null;
      const raw = a && b ? ratio(med(b, "rehydrate"), med(a, "rehydrate")) : null;
      return { h, x, raw };
    }).filter((e) => e.x !== null) as { h: string; x: number; raw: number | null }[];
    const bad = flat.filter((e) => e.x > LIMIT_FLAT);
    out.push({
      name:
        `cost flat in transcript size: ${big.label} within ${LIMIT_FLAT}x of ${small.label} (each as a ratio to its floor)`,
      pass: flat.length > 0 && bad.length === 0,
      detail: flat.map((e) => `${e.h} ${e.x.toFixed(2)}x (raw medians ${fmt(e.raw, 2)}x)`).join(", "),
    });
  } else {
    out.push({
      name: `cost flat in transcript size (within ${LIMIT_FLAT}x)`,
      pass: false,
      detail: "needs two generated sizes",
    });
  }

  const rss = r.cases.map((c) => ({ c, x: ratio(c.commands.rehydrate?.rssKB, c.commands.floor?.rssKB) })).filter((e) =>
    e.x !== null
  ) as { c: CaseResult; x: number }[];
  const badRss = rss.filter((e) => e.x > LIMIT_RSS).sort((a, b) => b.x - a.x);
  out.push({
    name: `peak RSS within ${LIMIT_RSS}x the floor's on every input`,
    pass: rss.length > 0 && badRss.length === 0,
    detail: rss.length === 0
      ? "not measured"
      : `${rss.length - badRss.length} of ${rss.length} cases within; largest ${
        Math.max(...rss.map((e) => e.x)).toFixed(2)
      }x` +
        (badRss.length
          ? `; over: ${badRss.slice(0, 6).map((e) => `${e.c.hook}@${e.c.input} ${e.x.toFixed(2)}x`).join(", ")}`
          : ""),
  });

  const first = generated[0];
  for (const [peer, limit, label] of [["node", LIMIT_NODE, "Node"], ["python", LIMIT_PYTHON, "Python"]] as const) {
    const rows = r.cases.filter((c) => c.input === first?.id && c.commands[peer]).map((c) => ({
      h: c.hook,
      x: ratio(med(c, peer), med(c, "rehydrate")),
    }))
      .filter((e) => e.x !== null) as { h: string; x: number }[];
    out.push({
      name: `at least ${limit}x faster than the ${label} peer at ${first?.label ?? "1 MB"}`,
      pass: rows.length > 0 && rows.every((e) => e.x >= limit),
      detail: rows.length ? rows.map((e) => `${e.h} ${e.x.toFixed(1)}x`).join(", ") : "no peer measured",
    });
  }
  return out;
}

function pairedCounts(cases: readonly CaseResult[], limit: number): string {
  const n = { within: 0, over: 0, undecided: 0 };
  for (const c of cases) {
    const v = pairedVerdict(c, "rehydrate", limit);
    if (v) n[v.verdict]++;
  }
  const total = n.within + n.over + n.undecided;
  return total === 0
    ? ""
    : `; by the 95 % interval of the per-round ratio: ${n.within} within, ${n.over} over, ${n.undecided} undecided`;
}

function coverageNote(verdicts: readonly (PairedVerdict | null)[]): string {
  const short = verdicts.filter((v): v is PairedVerdict => v !== null && v.ratio.coverage < 0.95);
  if (short.length === 0) return "";
  const least = short.reduce((a, v) => (v.ratio.coverage < a.ratio.coverage ? v : a));
  return ` With ${least.ratio.n} rounds no interval reaches 95 %: the interval given is the whole range of the rounds, ` +
    `which covers the median with probability ${(least.ratio.coverage * 100).toFixed(1)} %.`;
}

/** Options for {@linkcode renderMarkdown}. */
export interface MarkdownOptions {
  /** File name of the chart next to the report. Default `latency.svg`. */
  svg?: string;
}

/**
 * The markdown report: machine and versions, the chart, the targets, then the tables.
 *
 * @example
 * ```ts
 * writeFileSync("bench/results/latest.md", renderMarkdown(results));
 * ```
 */
export function renderMarkdown(r: BenchResults, options: MarkdownOptions = {}): string {
  const svg = options.svg ?? "latency.svg";
  const L: string[] = [];
  const inputLabel = new Map(r.inputs.map((i) => [i.id, i.label]));
  const present = COLUMNS.filter(([id]) => r.cases.some((c) => c.commands[id]));
  L.push(`# Latency benchmark (${r.mode})`, "");
  L.push(
    `${r.date.slice(0, 10)} on ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGB} GB, ${r.machine.os}.`,
  );
  L.push(
    `rehydrate ${r.versions.rehydrate}, Bun ${r.versions.bun}, ${r.versions.deno ?? "no Deno"}, Node ${
      r.versions.node ?? "–"
    }, ${r.versions.python ?? "no Python"}.`,
  );
  L.push(
    `${r.settings.runs} counted runs per command and case after ${r.settings.warmup} warm-up rounds, interleaved with the order rotated every round; ` +
      `peers at most ${r.settings.peerRunsAt100MB} counted runs (1 warm-up) from 50 MB and ${r.settings.peerRunsAt500MB} from 400 MB. Peak RSS: median of ${r.settings.rssRuns} separate runs under GNU time. ` +
      `Whole run: ${
        r.durationSeconds < 120 ? `${r.durationSeconds} s` : `${Math.round(r.durationSeconds / 60)} min`
      }. Reproduce: \`npm run bench\` (or \`bun bench/run.ts\`; \`--quick\` for a one-minute run).`,
    "",
  );
  L.push(`![median latency per hook against transcript size](${svg})`, "");
  L.push("## Targets", "", "| target | result | measured |", "|---|---|---|");
  for (const t of r.targets) L.push(`| ${t.name} | ${t.pass ? "PASS" : "**FAIL**"} | ${t.detail} |`);
  L.push("");

  L.push("## Median wall time (ms), ratio of medians to the floor", "");
  L.push(
    `| hook | input | ${present.map(([, h]) => h).join(" | ")} |`,
    `|---|---|${present.map(() => "---:").join("|")}|`,
  );
  for (const c of r.cases) {
    const floor = med(c, "floor");
    const cells = present.map(([id]) => {
      const m = med(c, id);
      if (m === null) return "–";
      return id === "floor" ? fmt(m) : `${fmt(m)} (${fmt(ratio(m, floor), 2)}x)`;
    });
    L.push(`| ${c.hook} | ${inputLabel.get(c.input) ?? c.input} | ${cells.join(" | ")} |`);
  }
  L.push("");

  const paired = r.cases.map((c) => ({
    c,
    o: pairedVerdict(c, "rehydrate", LIMIT_FLOOR),
    m: pairedVerdict(c, "multicall", LIMIT_FLOOR),
  })).filter((e) => e.o || e.m);
  if (paired.length) {
    L.push(`## Ratio to the floor per round, with a 95 % confidence interval`, "");
    L.push(
      `Each run divided by the floor's run in the same round (so drift between rounds cancels), the median of those ratios and the sign test's interval for it ` +
        `(the order statistics a binomial table names; it assumes only independent rounds). Against ${LIMIT_FLOOR}x: *within* when the whole interval is at or under it, ` +
        `*over* when the whole interval is above it, *undecided* when this run cannot tell.` +
        coverageNote(paired.flatMap((e) => [e.o, e.m])),
      "",
    );
    L.push(
      "| hook | input | rehydrate: ratio of medians | per round [95 % interval] | | one binary: per round [95 % interval] | |",
      "|---|---|---:|---:|---|---:|---|",
    );
    const cell = (v: PairedVerdict | null): string =>
      v ? `${fmt(v.ratio.median, 2)} [${fmt(v.ratio.lo, 2)}, ${fmt(v.ratio.hi, 2)}] | ${v.verdict}` : "– | –";
    for (const { c, o, m } of paired) {
      L.push(
        `| ${c.hook} | ${inputLabel.get(c.input) ?? c.input} | ${
          fmt(ratio(med(c, "rehydrate"), med(c, "floor")), 2)
        }x | ${cell(o)} | ${cell(m)} |`,
      );
    }
    L.push("");
  }

  const ic = r.instructions;
  if (ic && ic.cases.length) {
    const mi = (n: number | undefined): string => n === undefined ? "–" : (n / 1e6).toFixed(2);
    const beyond = (c: { counts: Record<string, number> }, id: string): string => {
      const n = c.counts[id];
      const f = c.counts.floor;
      return n === undefined || f === undefined ? "–" : ((n - f) / 1e6).toFixed(2);
    };
    L.push(
      `## Instructions executed (million; ${
        inputLabel.get(ic.input) ?? ic.input
      }, fewest of ${ic.runs} runs under valgrind's callgrind)`,
      "",
    );
    L.push(
      "User space only, all threads: exec, page faults and system calls are not in the count, so it ranks the work of our code, " +
        "not the whole start. It repeats to about 0.1 million from run to run where wall times move by 10-30 %: compare runs and machines by this.",
      "",
    );
    L.push(
      "| hook | floor | rehydrate | beyond the floor | one binary | beyond the floor |",
      "|---|---:|---:|---:|---:|---:|",
    );
    for (const c of ic.cases) {
      L.push(
        `| ${c.hook} | ${mi(c.counts.floor)} | ${mi(c.counts.rehydrate)} | ${beyond(c, "rehydrate")} | ${
          mi(c.counts.multicall)
        } | ${beyond(c, "multicall")} |`,
      );
    }
    L.push("");
  }

  L.push("## rehydrate and floor in detail (ms; RSS in MB)", "");
  L.push(
    "| hook | input | floor min | floor median | floor p95 | rehydrate min | rehydrate median | rehydrate p95 | floor RSS | rehydrate RSS | RSS ratio | exit | stdout bytes |",
  );
  L.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const c of r.cases) {
    const f = c.commands.floor;
    const o = c.commands.rehydrate;
    if (!f || !o) continue;
    L.push(
      `| ${c.hook} | ${inputLabel.get(c.input) ?? c.input} | ${fmt(f.wall.min)} | ${fmt(f.wall.median)} | ${
        fmt(f.wall.p95)
      } | ${fmt(o.wall.min)} | ${fmt(o.wall.median)} | ${fmt(o.wall.p95)} | ` +
        `${fmt(f.rssKB === null ? null : f.rssKB / 1024)} | ${fmt(o.rssKB === null ? null : o.rssKB / 1024)} | ${
          fmt(ratio(o.rssKB, f.rssKB), 2)
        } | ${o.exitCode} | ${o.stdoutBytes} |`,
    );
  }
  L.push("");

  L.push("## Peak RSS (MB)", "");
  L.push(
    `| hook | input | ${present.map(([, h]) => h).join(" | ")} |`,
    `|---|---|${present.map(() => "---:").join("|")}|`,
  );
  for (const c of r.cases) {
    L.push(`| ${c.hook} | ${inputLabel.get(c.input) ?? c.input} | ${
      present.map(([id]) => {
        const kb = c.commands[id]?.rssKB;
        return kb === null || kb === undefined ? "–" : fmt(kb / 1024);
      }).join(" | ")
    } |`);
  }
  L.push("");

  const peerCases = r.cases.filter((c) => c.commands.node || c.commands.python);
  if (peerCases.length) {
    L.push("## Speed-up over the peers (peer median / rehydrate median)", "");
    L.push("| hook | input | Node peer | Python peer |", "|---|---|---:|---:|");
    for (const c of peerCases) {
      L.push(
        `| ${c.hook} | ${inputLabel.get(c.input) ?? c.input} | ${fmt(ratio(med(c, "node"), med(c, "rehydrate")))}x | ${
          fmt(ratio(med(c, "python"), med(c, "rehydrate")))
        }x |`,
      );
    }
    L.push("");
  }

  const bc = r.cases.map((c) => ratio(med(c, "no-bytecode"), med(c, "rehydrate"))).filter((x): x is number =>
    x !== null
  ).sort((a, b) => a - b);
  if (bc.length) {
    L.push(
      "## --bytecode",
      "",
      `Median over all cases of (median without --bytecode / median with it, as shipped): ${
        bc[Math.floor(bc.length / 2)].toFixed(3)
      } ` +
        `(range ${bc[0].toFixed(3)} to ${
          bc[bc.length - 1].toFixed(3)
        }, ${bc.length} cases). Above 1 means the bytecode build, which build.ts makes by default, is faster.`,
      "",
    );
  }

  if (r.honesty.length) {
    L.push("## Same inputs, same outputs (ours against the peers, in substance)", "");
    L.push("| hook | input | command | agrees | what it produced | problems |", "|---|---|---|---|---|---|");
    for (const h of r.honesty) {
      L.push(
        `| ${h.hook} | ${inputLabel.get(h.input) ?? h.input} | ${h.command} | ${h.ok ? "yes" : "**no**"} | ${
          h.summary.replaceAll("|", "\\|")
        } | ${h.problems.join("; ").replaceAll("|", "\\|") || "–"} |`,
      );
    }
    L.push("");
  }

  const failed = r.cases.flatMap((c) =>
    Object.entries(c.commands).filter(([, x]) => x.exitCode !== 0).map(([id, x]) => ({ c, id, x }))
  );
  if (failed.length) {
    L.push(
      "## Commands that did not exit 0 (their times are not comparable)",
      "",
      "| hook | input | command | exit | stderr |",
      "|---|---|---|---:|---|",
    );
    for (const { c, id, x } of failed) {
      L.push(
        `| ${c.hook} | ${inputLabel.get(c.input) ?? c.input} | ${id} | ${x.exitCode} | ${
          (x.stderr ?? "").replace(/\s+/g, " ").slice(0, 160).replaceAll("|", "\\|")
        } |`,
      );
    }
    L.push("");
  }

  L.push("## Inputs", "", "| input | bytes | source |", "|---|---:|---|");
  for (const i of r.inputs) {
    L.push(
      `| ${i.label} | ${i.bytes.toLocaleString("en-US")} | ${
        i.generated
          ? `generated (bench/gen/transcript.ts)${
            i.generateSeconds ? `, ${i.generateSeconds.toFixed(1)} s` : ", cached"
          }`
          : i.path
      } |`,
    );
  }
  L.push("");
  if (r.notes.length) {
    L.push("## Notes", "");
    for (const n of r.notes) L.push(`- ${n}`);
    L.push("");
  }
  return L.join("\n");
}

const SERIES: readonly { id: string; label: string; color: string; dash?: string }[] = [
  { id: "rehydrate", label: "rehydrate (native binary)", color: "#1f6feb" },
  { id: "floor", label: "floor (Bun start, reads stdin, prints {})", color: "#6e7781", dash: "5 4" },
  { id: "node", label: "Node peer", color: "#2da44e" },
  { id: "python", label: "Python peer", color: "#d4760a" },
];

function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/**
 * The chart: one panel per hook, median wall time (log scale) against generated transcript size
 * (log scale) for rehydrate, the floor, and the Node and Python peers where they exist.
 *
 * @example
 * ```ts
 * writeFileSync("bench/results/latency.svg", renderSvg(results));
 * ```
 */
export function renderSvg(r: BenchResults): string {
  const sizes = r.inputs.filter((i) => i.generated).sort((a, b) => a.mb - b.mb);
  const hooks = [...new Set(r.cases.map((c) => c.hook))];
  const cols = 4;
  const rows = Math.max(1, Math.ceil(hooks.length / cols));
  const pw = 260;
  const ph = 210;
  const padL = 52;
  const padT = 30;
  const top = 86;
  const width = cols * pw + 20;
  const height = top + rows * ph + 40;
  let lo = Infinity;
  let hi = 0;
  for (const c of r.cases) {
    if (!sizes.some((s) => s.id === c.input)) continue;
    for (const s of SERIES) {
      const m = med(c, s.id);
      if (m !== null && m > 0) {
        lo = Math.min(lo, m);
        hi = Math.max(hi, m);
      }
    }
  }
  if (!Number.isFinite(lo)) {
    lo = 1;
    hi = 10;
  }
  const yMin = Math.pow(10, Math.floor(Math.log10(lo) * 2) / 2);
  const yMax = Math.pow(10, Math.ceil(Math.log10(hi) * 2) / 2);
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(yMin)); e <= Math.ceil(Math.log10(yMax)); e++) {
    for (const m of [1, 2, 5]) {
      const v = m * Math.pow(10, e);
      if (v >= yMin * 0.999 && v <= yMax * 1.001) ticks.push(v);
    }
  }
  const xMin = Math.log10(sizes[0]?.mb ?? 1);
  const xMax = Math.log10(sizes[sizes.length - 1]?.mb ?? 10);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="11">`,
  );
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  out.push(
    `<text x="12" y="22" font-size="15" font-weight="600">Median hook latency (ms, log scale) against transcript size (MB, log scale)</text>`,
  );
  out.push(
    `<text x="12" y="40" fill="#57606a">${
      esc(
        `${
          r.date.slice(0, 10)
        } · ${r.machine.cpu} · ${r.machine.cores} cores · Bun ${r.versions.bun} · ${r.settings.runs} interleaved runs per point (peers fewer on big files)`,
      )
    }</text>`,
  );
  SERIES.forEach((s, i) => {
    const x = 12 + i * 250;
    out.push(
      `<line x1="${x}" y1="62" x2="${x + 26}" y2="62" stroke="${s.color}" stroke-width="2.5"${
        s.dash ? ` stroke-dasharray="${s.dash}"` : ""
      }/>`,
    );
    out.push(`<text x="${x + 32}" y="66">${esc(s.label)}</text>`);
  });
  hooks.forEach((hook, index) => {
    const ox = 10 + (index % cols) * pw;
    const oy = top + Math.floor(index / cols) * ph;
    const w = pw - padL - 14;
    const h = ph - padT - 36;
    const X = (mb: number) => ox + padL + (xMax === xMin ? w / 2 : ((Math.log10(mb) - xMin) / (xMax - xMin)) * w);
    const Y = (ms: number) =>
      oy + padT + h - ((Math.log10(ms) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * h;
    out.push(`<text x="${ox + padL}" y="${oy + 18}" font-size="12.5" font-weight="600">${esc(hook)}</text>`);
    out.push(`<rect x="${ox + padL}" y="${oy + padT}" width="${w}" height="${h}" fill="none" stroke="#d0d7de"/>`);
    for (const t of ticks) {
      const y = Y(t);
      out.push(
        `<line x1="${ox + padL}" y1="${y.toFixed(1)}" x2="${ox + padL + w}" y2="${y.toFixed(1)}" stroke="#eaeef2"/>`,
      );
      out.push(
        `<text x="${ox + padL - 5}" y="${(y + 3.5).toFixed(1)}" text-anchor="end" fill="#57606a">${
          t >= 1000 ? `${t / 1000}k` : t
        }</text>`,
      );
    }
    // A label that would run into the one before it (100 and 200 on a log axis) goes a line lower.
    let lastRight = -Infinity;
    for (const s of sizes) {
      const x = X(s.mb);
      const half = String(s.mb).length * 3.3;
      const low = x - half < lastRight + 3;
      if (!low) lastRight = x + half;
      out.push(
        `<text x="${x.toFixed(1)}" y="${
          oy + padT + h + (low ? 25 : 14)
        }" text-anchor="middle" fill="#57606a">${s.mb}</text>`,
      );
    }
    out.push(`<text x="${ox + padL + w / 2}" y="${oy + padT + h + 28}" text-anchor="middle" fill="#57606a">MB</text>`);
    for (const s of SERIES) {
      const pts = sizes.map((size) => {
        const c = r.cases.find((c) => c.hook === hook && c.input === size.id);
        const m = c ? med(c, s.id) : null;
        return m !== null && m > 0 ? [X(size.mb), Y(m)] : null;
      }).filter((p): p is number[] => p !== null);
      if (pts.length === 0) continue;
      out.push(
        `<polyline fill="none" stroke="${s.color}" stroke-width="2"${
          s.dash ? ` stroke-dasharray="${s.dash}"` : ""
        } points="${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ")}"/>`,
      );
      for (const [x, y] of pts) {
        out.push(`<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="2.6" fill="${s.color}"/>`);
      }
    }
  });
  out.push("</svg>");
  return out.join("\n") + "\n";
}

if ((import.meta as { main?: boolean }).main) {
  // Re-render a report from its JSON: bun bench/report.ts bench/results/latest.json
  const { readFileSync, writeFileSync } = await import("node:fs");
  const file = process.argv[2] ?? new URL("./results/latest.json", import.meta.url).pathname;
  const results = JSON.parse(readFileSync(file, "utf8")) as BenchResults;
  results.targets = evaluateTargets(results);
  const isLatest = file.endsWith("latest.json");
  const svgName = isLatest ? "latency.svg" : file.replace(/.*\//, "").replace(/\.json$/, ".svg");
  writeFileSync(file.replace(/\.json$/, ".md"), renderMarkdown(results, { svg: svgName }));
  writeFileSync(file.replace(/[^/]*\.json$/, svgName), renderSvg(results));
  console.log(`re-rendered ${file.replace(/\.json$/, ".md")} and ${svgName}`);
}
