// The payload bench's reading of Codex rollouts (bench/_codex_replay.ts): the captured rollout as
// the shared scorer's rows, one session per compaction.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { codexSessions } from "../../../bench/_codex_replay.ts";
import { summaryOf, toolCalls, userMessages } from "../../../bench/_payload_quality_rules.ts";

const ROLLOUTS = join(import.meta.dirname!, "..", "..", "fixtures", "codex-0.171.0", "rollouts");

test("codexSessions() gives one session per compaction, cut at its boundary row with the summary after it", () => {
  const files = readdirSync(ROLLOUTS).map((n) => join(ROLLOUTS, n));
  const sessions = files.flatMap(codexSessions);
  assert.equal(sessions.length, 2);
  const [first, second] = sessions;
  for (const s of sessions) {
    assert.deepEqual(s.rows[s.cut].row, { subtype: "compact_boundary" });
    assert.equal(summaryOf(s.rows, s.cut), s.summary);
    assert.match(s.summary, /MOCK SUMMARY MARKER/);
    assert.ok(s.compacted.includes('"type":"compacted"'));
    assert.equal(s.cwd, "/home/dev/work/demo-proj");
  }
  const strip = (t: string) => t.replace(/ \[mock:\w+\]$/, "");
  assert.deepEqual(userMessages(first.rows.slice(0, first.cut)).map((m) => strip(m.text)), [
    "The totals are off by a cent sometimes. Find out why.",
    "Now write the regression test for 0.1 + 0.2",
  ]);
  assert.equal(userMessages(second.rows.slice(0, second.cut)).length, 4);
  // The test command re-run after the first compaction is a Bash call for the scorer.
  assert.deepEqual(toolCalls(first.rows.slice(first.cut + 1)).map((c) => c.input.command), ["npm test"]);
  assert.ok(first.before.length < second.before.length);
});
