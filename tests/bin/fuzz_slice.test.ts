// A bounded slice of the hook fuzzer (tests/fuzz/run.ts) for `npm test`: per hook, 400 cases
// in-process through handleHook() and 12 on the compiled binary, in two worlds (each a project
// workspace or an ordinary repository), a few of them on the adversarial transcripts. The full run is
// `bun tests/fuzz/run.ts` (see tests/fuzz/RESULTS.md). FUZZ_SEED=<n> picks another seed; a
// failure names the command that replays its world.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { fuzzHook, HANDLERS } from "../fuzz/run.ts";
import { DIST, HOOKS } from "./_bin.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 424242);

describe(`the hook fuzzer, a bounded slice (seed ${SEED})`, () => {
  // The hooks the fuzzer has a handler for (a hook added since needs its handler and payload there).
  for (const hook of HOOKS.filter((h) => h in HANDLERS)) {
    test(`${hook} keeps every property on 400 damaged inputs in-process and 12 on the binary`, async () => {
      // Hangs are what this slice must catch on a shared CI machine; the full run (npm run fuzz) holds ordinary
      // cases to 1 s of CPU and cases on the adversarial transcripts to 2 s.
      const r = await fuzzHook({
        seed: SEED,
        hook,
        cases: 400,
        spawn: 12,
        worldSize: 200,
        limitMs: 5000,
        adversarialLimitMs: 15_000,
        wallLimitMs: 60_000,
        dist: DIST,
      });
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
