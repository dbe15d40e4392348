// The bar of issue 3: on real transcripts cut where they were compacted, the working set must
// do at least as well as "the 10 most recently touched files" in precision and in recall, and on
// the synthetic cuts (summed) strictly better in recall. The numbers are computed here, from the
// fixtures, by the same code that prints the table (bench/detection-quality.ts).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { evaluateDetection, formatEvaluation, totals } from "../../../bench/detection-quality.ts";

const evaluation = evaluateDetection();

describe("working-set quality on the public transcripts", () => {
  test("there is at least one real compaction with files touched after it", () => {
    assert.ok(evaluation.boundary.length >= 1);
  });

  test("on every real compaction the recall is at least the baseline's", () => {
    for (const c of evaluation.boundary) {
      assert.ok(c.ours.recall >= c.baseline.recall, `${c.file}: ${c.ours.recall} < ${c.baseline.recall}`);
    }
  });

  test("on every real compaction the precision is at least the baseline's", () => {
    for (const c of evaluation.boundary) {
      assert.ok(c.ours.precision >= c.baseline.precision, `${c.file}: ${c.ours.precision} < ${c.baseline.precision}`);
    }
  });

  test("summed over the synthetic cuts the recall is strictly better than the baseline's", () => {
    assert.ok(evaluation.synthetic.length >= 3);
    const t = totals(evaluation.synthetic);
    assert.ok(t.ours.recall > t.baseline.recall, `${t.ours.recall} <= ${t.baseline.recall}`);
  });

  test("the report has both tables", () => {
    const text = formatEvaluation(evaluation);
    assert.match(text, /### Real compactions/);
    assert.match(text, /### Synthetic cuts/);
  });
});
