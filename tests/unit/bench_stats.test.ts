// The benchmark's statistics, its sandbox restore and its report: cheap checks, nothing timed.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SaxesParser } from "saxes";
import { quantile, ratio, roundOrder, summarize } from "../../bench/stats.ts";
import { snapshotTree } from "../../bench/sandbox.ts";
import { type BenchResults, type CaseResult, evaluateTargets, renderMarkdown, renderSvg } from "../../bench/report.ts";

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
    assert.deepEqual({ ...s, p95: Math.round(s.p95 * 100) / 100 }, { n: 5, min: 1, median: 3, p95: 4.8, max: 5, mean: 3 });
  });

  test("roundOrder() puts every command in every position once per cycle", () => {
    const items = ["a", "b", "c"];
    const positions = new Map<string, Set<number>>(items.map((i) => [i, new Set()]));
    for (let r = 0; r < 3; r++) roundOrder(items, r).forEach((item, pos) => positions.get(item)!.add(pos));
    for (const set of positions.values()) assert.deepEqual([...set].sort(), [0, 1, 2]);
    assert.deepEqual(roundOrder(items, 4), ["b", "c", "a"]);
    assert.deepEqual(roundOrder([], 2), []);
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
      { hook: "stop", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(12, 33_000), node: cmd(130), python: cmd(190) } },
      { hook: "stop", input: "500mb", commands: { floor: cmd(10), rehydrate: cmd(13, 33_000), node: cmd(9000), python: cmd(9000) } },
    ]);
    const t = evaluateTargets(r);
    assert.deepEqual(t.map((x) => x.pass), [true, true, true, true, true]);
  });

  test("evaluateTargets() fails each target on the number that breaks it", () => {
    const r = results([
      { hook: "stop", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(12), node: cmd(100), python: cmd(150) } },
      { hook: "stop", input: "500mb", commands: { floor: cmd(10), rehydrate: cmd(14, 40_000), node: cmd(9000), python: cmd(9000) } },
    ]);
    const t = evaluateTargets(r);
    // 14 ms is 1.4x the floor and 1.17x the 1 MB ratio, RSS 1.33x; Node 8.3x and Python 12.5x at 1 MB.
    assert.deepEqual(t.map((x) => x.pass), [false, false, false, false, false]);
    assert.match(t[0].detail, /stop@500mb 1\.40x/);
  });

  test("renderSvg() writes well-formed SVG that escapes text and draws every series", () => {
    const r = results([
      { hook: "pre-compact", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(12), node: cmd(60), python: cmd(70) } },
      { hook: "pre-compact", input: "500mb", commands: { floor: cmd(10), rehydrate: cmd(12), node: cmd(6000), python: cmd(7000) } },
    ]);
    r.machine.cpu = "CPU <with> & \"quotes\"";
    const svg = renderSvg(r);
    const parser = new SaxesParser({ xmlns: true });
    let polylines = 0;
    parser.on("opentag", (tag) => {
      if (tag.local === "polyline") polylines++;
    });
    parser.write(svg).close();
    assert.equal(polylines, 4);
  });

  test("renderMarkdown() shows the targets and one table row per case", () => {
    const r = results([{ hook: "stop", input: "1mb", commands: { floor: cmd(10), rehydrate: cmd(20) } }]);
    r.targets = evaluateTargets(r);
    const md = renderMarkdown(r);
    assert.match(md, /\| every hook's median within 1\.3x the floor on every input \| \*\*FAIL\*\* \|/);
    assert.match(md, /\| stop \| 1 MB \| 10\.0 \| 20\.0 \(2\.00x\) \|/);
  });
});
