// The benchmark's statistics, its sandbox restore and its report: cheap checks, nothing timed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SaxesParser } from "saxes";
import { pairedRatio, quantile, ratio, roundOrder, summarize } from "../../bench/stats.ts";
import { snapshotTree } from "../../bench/sandbox.ts";
import {
  type BenchResults,
  type CaseResult,
  evaluateTargets,
  pairedVerdict,
  renderMarkdown,
  renderSvg,
} from "../../bench/report.ts";

describe("bench statistics", () => {
  test("quantile() interpolates linearly between closest ranks", () => {
    assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
    assert.equal(quantile([10, 20, 30, 40, 50], 0.95), 48);
    assert.equal(quantile([7], 0.95), 7);
    assert.ok(Number.isNaN(quantile([], 0.5)));
  });

  test("summarize() reports min, median, p95, max and mean without reordering its input", () => {
    const values = [5, 1, 4, 2, 3];
    const s = summarize(values);
    assert.deepEqual(values, [5, 1, 4, 2, 3]);
    assert.deepEqual({ ...s, p95: Math.round(s.p95 * 100) / 100 }, {
      n: 5,
      min: 1,
      median: 3,
      p95: 4.8,
      max: 5,
      mean: 3,
    });
  });

  test("roundOrder() puts every command in every position once per cycle", () => {
    const items = ["a", "b", "c"];
    const positions = new Map<string, Set<number>>(items.map((i) => [i, new Set()]));
    for (let r = 0; r < 3; r++) roundOrder(items, r).forEach((item, pos) => positions.get(item)!.add(pos));
    for (const set of positions.values()) assert.deepEqual([...set].sort(), [0, 1, 2]);
    assert.deepEqual(roundOrder(items, 4), ["b", "c", "a"]);
    assert.deepEqual(roundOrder([], 2), []);
  });

  test("pairedRatio() gives the sign test's interval: the order statistics a binomial table names", () => {
    // Exact P(X <= j) for X ~ Binomial(n, 1/2), in integers.
    const cdf = (n: number, j: number): number => {
      let sum = 0n;
      let c = 1n;
      for (let i = 0; i <= j; i++) {
        sum += c;
        c = (c * BigInt(n - i)) / BigInt(i + 1);
      }
      return Number(sum) / 2 ** n;
    };
    for (const n of [6, 7, 10, 20, 25, 41, 61]) {
      const runs = Array.from({ length: n }, (_, i) => (i * 7919) % n + 1); // a permutation of 1..n
      const r = pairedRatio(runs, Array(n).fill(1))!;
      // The table's k: the largest with P(X <= k - 1) <= 0.025.
      let k = 0;
      while (cdf(n, k) <= 0.025) k++;
      assert.equal(r.lo, k, `n=${n}`);
      assert.equal(r.hi, n + 1 - k, `n=${n}`);
      assert.ok(Math.abs(r.coverage - (1 - 2 * cdf(n, k - 1))) < 1e-12, `n=${n}`);
      assert.ok(r.coverage >= 0.95);
      assert.equal(r.median, (n + 1) / 2);
    }
    const t = pairedRatio(Array.from({ length: 25 }, (_, i) => i + 1), Array(25).fill(1))!;
    assert.deepEqual([t.lo, t.hi], [8, 18]);
  });

  test("pairedRatio() cancels drift between rounds that the ratio of medians does not", () => {
    // The machine slows down over the run; the hook costs 1.25x the floor in every round.
    const floor = Array.from({ length: 30 }, (_, i) => 8 + (i % 10) * 0.6 + (i > 20 ? 6 : 0));
    const hook = floor.map((f, i) => f * 1.25 + (i % 3 === 0 ? 0.05 : -0.05));
    const r = pairedRatio(hook, floor)!;
    assert.ok(r.lo > 1.24 && r.hi < 1.26, `${r.lo}..${r.hi}`);
    // Shifting which rounds the hook ran slow in moves the ratio of medians, not the paired one.
    const shuffled = [...hook.slice(15), ...hook.slice(0, 15)];
    assert.equal(
      summarize(shuffled).median / summarize(floor).median,
      summarize(hook).median / summarize(floor).median,
    );
    assert.ok(pairedRatio(shuffled, floor)!.hi - pairedRatio(shuffled, floor)!.lo > 0.3);
  });

  test("pairedRatio() with too few rounds spans the whole range and says its coverage is lower", () => {
    const r = pairedRatio([3, 1, 2, 5, 4], [1, 1, 1, 1, 1])!;
    assert.deepEqual([r.lo, r.median, r.hi], [1, 3, 5]);
    assert.equal(r.coverage, 1 - 2 / 32);
    assert.ok(r.coverage < 0.95);
  });

  test("pairedRatio() refuses lists of different lengths, empty lists and non-positive values", () => {
    assert.equal(pairedRatio([1, 2], [1]), null);
    assert.equal(pairedRatio([], []), null);
    assert.equal(pairedRatio([1, 0], [1, 1]), null);
    assert.equal(pairedRatio([1, 1], [1, Number.NaN]), null);
    assert.equal(pairedRatio([1, Infinity], [1, 1]), null);
  });

  test("ratio() refuses missing values and non-positive divisors", () => {
    assert.equal(ratio(13, 10), 1.3);
    assert.equal(ratio(null, 10), null);
    assert.equal(ratio(1, 0), null);
    assert.equal(ratio(1, undefined), null);
  });
});

describe("bench sandbox", () => {
  test("restore() undoes writes, additions, deletions and new directories", () => {
    const root = mkdtempSync(join(tmpdir(), "bench-sandbox-"));
    try {
      mkdirSync(join(root, "a", "b"), { recursive: true });
      writeFileSync(join(root, "a", "b", "keep.txt"), "keep");
      writeFileSync(join(root, "state.json"), '{"n":1}', { mode: 0o600 });
      const snap = snapshotTree(root);
      writeFileSync(join(root, "state.json"), '{"n":2, "longer": true}');
      rmSync(join(root, "a", "b", "keep.txt"));
      mkdirSync(join(root, ".jerry", "checkpoints"), { recursive: true });
      writeFileSync(join(root, ".jerry", "checkpoints", "cx-001-checkpoint.json"), "{}");
      snap.restore();
      assert.equal(readFileSync(join(root, "state.json"), "utf8"), '{"n":1}');
      assert.equal(statSync(join(root, "state.json")).mode & 0o777, 0o600);
      assert.equal(readFileSync(join(root, "a", "b", "keep.txt"), "utf8"), "keep");
      assert.throws(() => statSync(join(root, ".jerry")), { code: "ENOENT" });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

function cmd(median: number, rssKB: number | null = 30_000) {
  return {
    argv: ["x"],
    wall: { n: 3, min: median - 1, median, p95: median + 1, max: median + 2, mean: median },
    samples: [median - 1, median, median + 1],
    rssKB,
    exitCode: 0,
    stdoutBytes: 0,
  };
}

function results(cases: CaseResult[]): BenchResults {
  return {
    schema: 1,
    date: "2026-11-21T10:00:00.000Z",
    mode: "full",
    durationSeconds: 600,
    machine: { cpu: "Test CPU", cores: 2, memoryGB: 8, os: "linux" },
    versions: { rehydrate: "0.1.0", bun: "1.4.5", deno: "deno 2.9.6", node: "v20", python: "Python 3.11" },
    settings: { runs: 3, warmup: 1, rssRuns: 1, peerRunsAt100MB: 3, peerRunsAt500MB: 3 },
    inputs: [
      { id: "1mb", label: "1 MB", mb: 1, bytes: 1e6, path: "a", generated: true },
      { id: "500mb", label: "500 MB", mb: 500, bytes: 5e8, path: "b", generated: true },
    ],
    cases,
    honesty: [],
    notes: ["a <note> & more"],
    targets: [],
  };
}

describe("bench report", () => {
  test("evaluateTargets() passes a hook within every limit", () => {
    const r = results([
      {
        hook: "stop",
        input: "1mb",
        commands: { floor: cmd(10), rehydrate: cmd(12, 33_000), node: cmd(130), python: cmd(190) },
      },
      {
        hook: "stop",
        input: "500mb",
        commands: { floor: cmd(10), rehydrate: cmd(13, 33_000), node: cmd(9000), python: cmd(9000) },
      },
    ]);
    const t = evaluateTargets(r);
    assert.deepEqual(t.map((x) => x.pass), [true, true, true, true, true]);
  });

  test("evaluateTargets() fails each target on the number that breaks it", () => {
    const r = results([
      {
        hook: "stop",
        input: "1mb",
        commands: { floor: cmd(10), rehydrate: cmd(12), node: cmd(100), python: cmd(150) },
      },
      {
        hook: "stop",
        input: "500mb",
        commands: { floor: cmd(10), rehydrate: cmd(14, 40_000), node: cmd(9000), python: cmd(9000) },
      },
    ]);
    const t = evaluateTargets(r);
    // 14 ms is 1.4x the floor and 1.17x the 1 MB ratio, RSS 1.33x; Node 8.3x and Python 12.5x at 1 MB.
    assert.deepEqual(t.map((x) => x.pass), [false, false, false, false, false]);
    assert.match(t[0].detail, /stop@500mb 1\.40x/);
  });

  test("pairedVerdict() says within, over or undecided from the per-round interval, and counts them in the target", () => {
    const rounds = (xs: number[]) => ({ ...cmd(xs[Math.floor(xs.length / 2)]), samples: xs });
    const floor = Array.from({ length: 25 }, (_, i) => 10 + (i % 5));
    const at = (f: (x: number, i: number) => number) => rounds(floor.map(f));
    const r = results([
      {
        hook: "stop",
        input: "1mb",
        commands: {
          floor: rounds(floor),
          rehydrate: at((x) => x * 1.1),
          multicall: at((x, i) => x * (i % 2 ? 1.4 : 1.2)),
        },
      },
      { hook: "stop", input: "500mb", commands: { floor: rounds(floor), rehydrate: at((x) => x * 1.5) } },
      // Peers run fewer rounds on big inputs: no pairing with the floor.
      { hook: "pre-compact", input: "500mb", commands: { floor: rounds(floor), node: rounds([900, 950, 1000]) } },
    ]);
    const c = r.cases;
    assert.equal(pairedVerdict(c[0], "rehydrate", 1.3)?.verdict, "within");
    assert.equal(pairedVerdict(c[0], "multicall", 1.3)?.verdict, "undecided");
    assert.equal(pairedVerdict(c[1], "rehydrate", 1.3)?.verdict, "over");
    assert.equal(pairedVerdict(c[2], "node", 1.3), null);
    assert.equal(pairedVerdict(c[2], "rehydrate", 1.3), null);
    assert.match(
      evaluateTargets(r)[0].detail,
      /by the 95 % interval of the per-round ratio: 1 within, 1 over, 0 undecided$/,
    );
    r.targets = evaluateTargets(r);
    const md = renderMarkdown(r);
    assert.match(
      md,
      /\| stop \| 1 MB \| 1\.10x \| 1\.10 \[1\.10, 1\.10\] \| within \| 1\.\d\d \[1\.20, 1\.40\] \| undecided \|/,
    );
    assert.match(md, /\| stop \| 500 MB \| 1\.50x \| 1\.50 \[1\.50, 1\.50\] \| over \| – \| – \|/);
    const section = md.slice(
      md.indexOf("## Ratio to the floor per round"),
      md.indexOf("## rehydrate and floor in detail"),
    );
    assert.equal(section.split("\n").filter((l) => l.startsWith("| stop |")).length, 2);
    assert.doesNotMatch(section, /pre-compact/);
    assert.doesNotMatch(section, /no interval reaches 95 %/);
    // Five rounds (the quick mode): the whole range, and the report says what it covers.
    const quick = results([{
      hook: "stop",
      input: "1mb",
      commands: { floor: rounds([10, 11, 12, 13, 14]), rehydrate: rounds([11, 13, 14, 15, 17]) },
    }]);
    quick.targets = evaluateTargets(quick);
    assert.match(renderMarkdown(quick), /With 5 rounds no interval reaches 95 %: .* probability 93\.8 %\./);
  });

  test("renderSvg() writes well-formed SVG that escapes text and draws every series", () => {
    const r = results([
      {
        hook: "pre-compact",
        input: "1mb",
        commands: { floor: cmd(10), rehydrate: cmd(12), node: cmd(60), python: cmd(70) },
      },
      {
        hook: "pre-compact",
        input: "500mb",
        commands: { floor: cmd(10), rehydrate: cmd(12), node: cmd(6000), python: cmd(7000) },
      },
    ]);
    r.machine.cpu = 'CPU <with> & "quotes"';
    const svg = renderSvg(r);
    const parser = new SaxesParser({ xmlns: true });
    let polylines = 0;
    parser.on("opentag", (tag) => {
      if (tag.local === "polyline") polylines++;
    });
    parser.write(svg).close();
    assert.equal(polylines, 4);
  });

  test("renderSvg() moves an x label that would run into the one before it a line lower", () => {
    const r = results([{ hook: "stop", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(12) } }]);
    r.inputs = [1, 10, 100, 200, 500].map((mb) => ({
      id: `${mb}mb`,
      label: `${mb} MB`,
      mb,
      bytes: mb * 1e6,
      path: "p",
      generated: true,
    }));
    const y = new Map<string, number>();
    const parser = new SaxesParser({ xmlns: true });
    let at: number | null = null;
    parser.on("opentag", (tag) => {
      at = tag.local === "text" && tag.attributes["text-anchor"]?.value === "middle"
        ? Number(tag.attributes.y?.value)
        : null;
    });
    parser.on("text", (t) => {
      if (at !== null && /^\d+$/.test(t)) y.set(t, at);
    });
    parser.write(renderSvg(r)).close();
    assert.equal(y.get("1"), y.get("10"));
    assert.equal(y.get("10"), y.get("100"));
    assert.equal(y.get("500"), y.get("100"));
    assert.ok(y.get("200")! > y.get("100")!, `200 at ${y.get("200")}, 100 at ${y.get("100")}`);
  });

  test("renderMarkdown() tables the instruction counts beyond the floor, and leaves the section out without them", () => {
    const r = results([{ hook: "stop", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(12) } }]);
    assert.doesNotMatch(renderMarkdown(r), /## Instructions executed/);
    r.instructions = {
      input: "500mb",
      runs: 3,
      cases: [{ hook: "stop", counts: { floor: 6_480_000, rehydrate: 7_590_000, multicall: 7_730_000 } }],
    };
    const md = renderMarkdown(r);
    assert.match(md, /## Instructions executed \(million; 500 MB, fewest of 3 runs/);
    assert.match(md, /\| stop \| 6\.48 \| 7\.59 \| 1\.11 \| 7\.73 \| 1\.25 \|/);
    r.instructions.cases[0].counts = { floor: 6_480_000, rehydrate: 7_590_000 };
    assert.match(renderMarkdown(r), /\| stop \| 6\.48 \| 7\.59 \| 1\.11 \| – \| – \|/);
  });

  test("renderMarkdown() shows the targets and one table row per case", () => {
    const r = results([{ hook: "stop", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(20) } }]);
    r.targets = evaluateTargets(r);
    const md = renderMarkdown(r);
    assert.match(md, /\| every hook's median within 1\.3x the floor on every input \| \*\*FAIL\*\* \|/);
    assert.match(md, /\| stop \| 1 MB \| 10\.0 \| 20\.0 \(2\.00x\) \|/);
  });
});
