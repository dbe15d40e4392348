import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { buildSessionSnapshot, type SessionSnapshot } from "../../../lib/session/snapshot.ts";
import { MAX_SUMMARIZER_CHARS, summarizerInstructions } from "../../../lib/session/summarizer_instructions.ts";
import { mulberry32 } from "../_rng.ts";
import { golden, plantedSecrets, SESSION_FIXTURES } from "./_fixtures.ts";
import { randomSnapshot } from "./_random_snapshot.ts";

function everyday(): SessionSnapshot {
  return buildSessionSnapshot(join(SESSION_FIXTURES, "everyday.jsonl"), {
    sessionId: "5e55f1a7-2c1b-4d3e-9f00-7a1b2c3d4e5f",
    cwd: "/home/dev/work/demo-proj",
    now: new Date("2026-11-21T10:00:00.000Z"),
    git: null,
  });
}

/** The text between the first quote and the end of `line`, parsed back as the JSON strings it holds. */
function quotes(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"(?:[^"\\]|\\.)*"/g)) out.push(JSON.parse(m[0]));
  return out;
}

describe("summarizerInstructions()", () => {
  test("summarizerInstructions() matches the golden text of the everyday transcript", () => {
    golden("everyday.summarizer.txt", summarizerInstructions(everyday()));
  });

  test("summarizerInstructions() quotes the last checks and the edited files, and asks for the rest by kind", () => {
    const lines = summarizerInstructions(everyday()).split("\n");
    assert.match(lines[0], /^rehydrate, to the summarizer of this conversation:/);
    const commands = lines.find((l) => l.startsWith("- The last build, test and lint commands"))!;
    assert.deepEqual(quotes(commands), ["npm test -- test/report.test.ts 2>&1 | tail -20", "✕ prints --json (3 ms)"]);
    assert.match(commands, /\(exit 1: "✕ prints --json \(3 ms\)"\)$/);
    const files = lines.find((l) => l.startsWith("- The names of the files edited"))!;
    assert.deepEqual(quotes(files), ["docs/json-output.md", "src/report.ts", "src/legacy/format.ts"]);
    for (
      const asked of ["latest request, word for word.", "constraints and preferences", "open tasks, word for word"]
    ) {
      assert.ok(lines.some((l) => l.includes(asked)), asked);
    }
    // The request and the tasks are in front of the summarizer: not quoted a second time.
    assert.ok(!lines.some((l) => l.includes("Just finish task 2")));
  });

  test("summarizerInstructions() puts transcript text on one quoted line, whatever it holds", () => {
    const s = everyday();
    s.commands = [{ command: 'line one\nline two\r\n"quoted" \\ back\u2028sep\u0007bell', exit: 2 }];
    s.plan_file = "docs/a\nb.md";
    const text = summarizerInstructions(s);
    const lines = text.split("\n");
    assert.equal(lines.at(-1), "");
    for (const line of lines.slice(0, -1)) {
      assert.ok(line.startsWith("rehydrate,") || line.startsWith("- The") || line.startsWith("Quoted text"), line);
    }
    assert.deepEqual(quotes(lines.find((l) => l.includes("commands"))!), [
      'line one line two "quoted" \\ back sep bell',
    ]);
    assert.deepEqual(quotes(lines.find((l) => l.includes("plan file"))!), ["docs/a b.md"]);
    // deno-lint-ignore no-control-regex
    assert.ok(!/[\u2028\u2029\u0007\r]/.test(text));
  });

  test("summarizerInstructions() redacts secrets", () => {
    const s = everyday();
    const secrets = plantedSecrets();
    s.commands = secrets.map((p) => ({ command: p.planted, exit: 1, failure: p.planted }));
    s.edited_files = secrets.map((p) => ({ path: `cfg/${p.planted}` }));
    const text = summarizerInstructions(s, { maxChars: 100_000 });
    for (const p of secrets) assert.ok(!text.includes(p.secret), `leaked ${p.kind}`);
  });

  test("summarizerInstructions() fits 1,500 characters with 1,000 edited files and long commands", () => {
    const s = everyday();
    s.edited_files = Array.from({ length: 200 }, (_, i) => ({ path: `src/generated/module-${i}.ts` }));
    s.edited_files_total = 1000;
    s.commands = Array.from({ length: 4 }, (_, i) => ({ command: `make check-${i} `.repeat(100), exit: i }));
    const text = summarizerInstructions(s);
    assert.ok(text.length <= MAX_SUMMARIZER_CHARS, `${text.length}`);
    assert.match(text, /and 9\d\d more\n/);
    assert.ok(text.includes("latest request"));
  });

  test("summarizerInstructions() says nothing without content", () => {
    const s = everyday();
    assert.equal(
      summarizerInstructions({
        ...s,
        tasks: [],
        user_requests: [],
        edited_files: [],
        edited_files_total: 0,
        commands: undefined,
      }),
      "",
    );
  });

  test("summarizerInstructions() stays within its budget on random snapshots", () => {
    const rng = mulberry32(1500);
    for (let i = 0; i < 300; i++) {
      const max = [300, 800, 1500][i % 3];
      const text = summarizerInstructions(randomSnapshot(rng), { maxChars: max });
      assert.ok(text.length <= max, `case ${i}: ${text.length} > ${max}`);
      for (const line of text.split("\n").filter((l) => l.includes('"'))) assert.doesNotThrow(() => quotes(line), line);
    }
  });
});
