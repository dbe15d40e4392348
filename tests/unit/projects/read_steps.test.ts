import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSteps } from "../../../lib/projects/read_steps.ts";

const WORKSPACE = join(import.meta.dirname!, "..", "..", "fixtures", "workspace", "nexus", "02-projects");

function withSteps(text: string, fn: (dir: string) => void, name = "01-planning/04-steps.md"): void {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-steps-"));
  try {
    mkdirSync(join(dir, "01-planning"), { recursive: true });
    writeFileSync(join(dir, name), text);
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("readSteps()", () => {
  test("readSteps() reads execution phase, current task and progress of the sample project", () => {
    assert.deepEqual(readSteps(join(WORKSPACE, "01-website-redesign")), {
      file: "01-planning/04-steps.md",
      phase: "execution",
      currentTask: "Server-render the pricing table from pricing.json",
      currentTaskLine: 11,
      checked: 5,
      total: 9,
    });
  });

  test("readSteps() says planning while a Phase 1 item is unchecked", () => {
    const s = readSteps(join(WORKSPACE, "02-api-migration"))!;
    assert.equal(s.phase, "planning");
    assert.equal(s.currentTask, "Plan");
    assert.deepEqual([s.checked, s.total], [2, 7]);
  });

  test("readSteps() falls back to the legacy steps.md name", () => {
    assert.equal(readSteps(join(WORKSPACE, "03-legacy-notes"))!.file, "01-planning/steps.md");
  });

  test("readSteps() ends Phase 1 at the next heading of its level and skips fenced code", () => {
    withSteps(
      "# Steps\r\n\r\n## Phase 1 - Planning\r\n- [x] A\r\n### Details\r\n* [X] B\r\n```\r\n- [ ] not a task\r\n```\r\n## Phase 2\r\n1. [ ] C\r\n- [ ] D\r\n",
      (dir) => {
        const s = readSteps(dir)!;
        assert.equal(s.phase, "execution");
        assert.equal(s.currentTask, "C");
        assert.equal(s.currentTaskLine, 11);
        assert.deepEqual([s.checked, s.total], [2, 4]);
      },
    );
  });

  test("readSteps() gives a null phase without a Phase 1 heading and null without a steps file", () => {
    withSteps("- [ ] only\n", (dir) => {
      const s = readSteps(dir)!;
      assert.equal(s.phase, null);
      assert.equal(s.currentTask, "only");
      assert.equal(readSteps(dir, { stepsNames: ["nope.md"] }), null);
    });
  });

  test("readSteps() refuses a steps name that leaves the project folder", () => {
    withSteps("- [ ] x\n", (dir) => {
      writeFileSync(join(dir, "outside.md"), "- [ ] outside\n");
      assert.equal(readSteps(join(dir, "01-planning"), { stepsNames: ["../outside.md"] }), null);
      assert.equal(readSteps(join(dir, "01-planning"), { stepsNames: [join(dir, "outside.md")] }), null);
      assert.equal(readSteps(join(dir, "01-planning"), { stepsNames: ["04-steps.md"] })!.currentTask, "x");
    });
  });
});
