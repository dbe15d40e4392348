// A bounded slice of the hook fuzzer (tests/fuzz/run.ts) for `npm test`: per hook, 400 cases
// in-process through handleHook() and 12 on the compiled binary, one world. The full run is
// `bun tests/fuzz/run.ts` (see tests/fuzz/RESULTS.md). FUZZ_SEED=<n> picks another seed; a
// failure names the command that replays its world.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { fuzzHook } from "../fuzz/run.ts";
import { HOOKS } from "./_bin.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 424242);

describe(`the hook fuzzer, a bounded slice (seed ${SEED})`, () => {
  for (const hook of HOOKS) {
    test(`${hook} keeps every property on 400 damaged inputs in-process and 12 on the binary`, async () => {
      // Hangs are what this slice must catch on a shared CI machine; the full run (npm run fuzz) holds cases to 1 s.
      const r = await fuzzHook({ seed: SEED, hook, cases: 400, spawn: 12, worldSize: 400, limitMs: 5000 });
      assert.equal(r.inProcess + r.binary, 400);
      assert.ok(r.binary >= 12, `${r.binary} binary cases`);
      assert.deepEqual(
        r.failures.map((f) =>
          `${f.mode} case ${f.case} (${f.kind}${f.damage ? `, ${f.damage}` : ""}): ${
            f.problems.join("; ")
          } [${f.replay}]`
        ),
        [],
      );
    });
  }
});
