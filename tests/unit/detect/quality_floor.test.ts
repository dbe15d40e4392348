// A floor under the working set's quality on real sessions: five sessions of the development set
// (tests/fixtures/detection-dev, the first five by name, not chosen for their scores), cut at their
// first compaction and scored as bench/detection-quality.ts scores the whole set. The floors are
// what the detector reached when they were set, minus two files: a change that loses more than
// that on these sessions has to show why on the whole set first (`npx bun bench/detection-quality.ts`).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { devScore, devSetFiles, evaluateDevSet, sumScores } from "../../../bench/detection-quality.ts";

const SESSIONS = [
  "entireio__0276a600",
  "entireio__03a1382e",
  "entireio__062a8bdd",
  "entireio__08940314",
  "entireio__0c275b1b",
];
const cases = evaluateDevSet(devSetFiles().filter((f) => SESSIONS.some((s) => f.endsWith(`${s}.jsonl.gz`))));
const ours = sumScores(cases.map((c) => devScore(c.ours, c.truth)));
const baseline = sumScores(cases.map((c) => devScore(c.baseline, c.truth)));
const resume = sumScores(cases.filter((c) => c.resume.length > 0).map((c) => devScore(c.ours, c.resume)));

describe("working-set quality on five development-set sessions", () => {
  test("all five sessions are scored", () => {
    assert.equal(cases.length, 5);
    assert.equal(ours.truth, 27);
  });

  test("recall@10 stays at 14 of 27 files or more (16 when set; the baseline has 13)", () => {
    assert.ok(ours.hits10 >= 14, `${ours.hits10}/${ours.truth}`);
    assert.ok(ours.hits10 >= baseline.hits10, `${ours.hits10} < baseline ${baseline.hits10}`);
  });

  test("recall@20 stays at 16 of 27 files or more (18 when set; the baseline has 15)", () => {
    assert.ok(ours.hits20 >= 16, `${ours.hits20}/${ours.truth}`);
  });

  test("the resume truth's recall@10 stays at 13 of 20 files or more (15 when set)", () => {
    assert.equal(resume.truth, 20);
    assert.ok(resume.hits10 >= 13, `${resume.hits10}/${resume.truth}`);
  });
});
