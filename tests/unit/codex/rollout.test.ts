// The Codex rollout layer (lib/codex/): rows, their items, the backward reader, the newest
// compaction, the fill and the host detection, on the rollouts and hook inputs captured from Codex
// 0.171.0 and on hand-made rows.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseRolloutRow, type RolloutRow } from "../../../lib/codex/rollout_row.ts";
import { type RolloutItem, rolloutItems } from "../../../lib/codex/rollout_items.ts";
import { rolloutRows } from "../../../lib/codex/rollout_rows.ts";
import { newestCompaction } from "../../../lib/codex/newest_compaction.ts";
import { codexFill } from "../../../lib/codex/rollout_fill.ts";
import { isCodexInput } from "../../../lib/codex/is_codex_input.ts";
import { autoCompactLimit } from "../../../lib/codex/auto_compact_limit.ts";
import { codexHome } from "../../../lib/codex/codex_home.ts";
import { CODEX_FIXTURES, threadRollout } from "./_fixture.ts";

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-rollout-"));
  made.push(dir);
  return dir;
}

/** Every item of a rollout, oldest first, with its row's ordinal. */
function items(path: string): { ordinal?: number; item: RolloutItem }[] {
  const out: { ordinal?: number; item: RolloutItem }[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const row = parseRolloutRow(line);
    if (row !== undefined) { for (const item of rolloutItems(row)) out.push({ ordinal: row.ordinal, item }); }
  }
  return out;
}

describe("lib/codex on the captured rollout", () => {
  const path = join(CODEX_FIXTURES, threadRollout());
  const all = items(path);
  const kinds = (k: RolloutItem["kind"]) => all.filter((x) => x.item.kind === k).map((x) => x.item);

  test("rolloutItems() finds the typed messages, and neither the client's blocks nor the summary", () => {
    const typed = kinds("typed").map((i) => (i as { text: string }).text.replace(/ \[mock:\w+\]$/, ""));
    assert.deepEqual(typed, [
      "The totals are off by a cent sometimes. Find out why.",
      "Now write the regression test for 0.1 + 0.2",
      "Keep going with the cents fix",
      "Run the tests again",
    ]);
  });

  test("rolloutItems() gives update_plan's steps as the plan", () => {
    assert.deepEqual(kinds("plan"), [{
      kind: "plan",
      steps: [
        { step: "Fix rounding: sum integer cents in src/format.js", status: "in_progress" },
        { step: "Add a regression test for 0.1 + 0.2", status: "pending" },
      ],
    }]);
  });

  test("rolloutItems() gives each finished command with its exit code, and the files it only read", () => {
    const commands = kinds("command") as { command: string; exit?: number; output: string }[];
    assert.deepEqual(commands.map((c) => [c.command, c.exit]), [
      ["sed -n '1,20p' src/format.js", 0],
      ["npm test", 1],
      ["npm test", 1],
    ]);
    assert.match(commands[1].output, /^not ok 1 - /m);
    assert.deepEqual(kinds("read"), [{ kind: "read", path: "src/format.js" }]);
  });

  test("rolloutItems() gives the applied patches' files by absolute path, an added file as add", () => {
    assert.deepEqual(kinds("edit"), [
      { kind: "edit", changes: [{ path: "/home/dev/work/demo-proj/src/format.js", type: "update" }], ok: true },
      { kind: "edit", changes: [{ path: "/home/dev/work/demo-proj/test/cents.test.js", type: "add" }], ok: true },
    ]);
  });

  test("rolloutItems() leaves out the compaction's own reply and keeps the model's text", () => {
    const texts = kinds("assistant").map((i) => (i as { text: string }).text);
    assert.ok(texts.includes("Added test/cents.test.js."));
    assert.ok(!texts.some((t) => t.includes("MOCK SUMMARY MARKER")), texts.join(" | "));
  });

  test("rolloutItems() gives both compactions, with the user messages the client kept", () => {
    const compactions = kinds("compacted") as { summary: string; kept: string[] }[];
    assert.equal(compactions.length, 2);
    assert.ok(compactions[0].summary.startsWith("Another language model started to solve this problem"));
    assert.equal(compactions[0].kept.length, 2);
    assert.equal(compactions[1].kept.length, 4);
  });

  test("rolloutRows() gives the same items newest first, without parsing the client's instructions", () => {
    const rows: RolloutRow[] = [];
    const reader = rolloutRows(path);
    for (let row = reader.next(); row !== undefined; row = reader.next()) rows.push(row);
    assert.ok(rows.every((r) => r.type !== "session_meta" && r.type !== "world_state"));
    const back = rows.reverse().flatMap((r) => rolloutItems(r));
    assert.deepEqual(back, all.map((x) => x.item));
  });

  test("newestCompaction() finds the automatic compaction, the newest", () => {
    const c = newestCompaction(path);
    assert.ok(c !== undefined);
    assert.equal(c.kept.at(-1)?.replace(/ \[mock:\w+\]$/, ""), "Run the tests again");
    assert.equal(newestCompaction(join(CODEX_FIXTURES, "rollout-snapshots", "at-PreCompact-1.jsonl")), undefined);
  });

  test("codexFill() reads the newest token count, toward 90 % of the model's window", () => {
    assert.deepEqual(codexFill(path), { tokens: 10709, window: 258_400, compactsAt: 244_800 });
    assert.deepEqual(codexFill(path, { autoCompactLimit: 100_000 })?.compactsAt, 100_000);
    assert.deepEqual(codexFill(path, { windowTokens: 190_000 })?.compactsAt, 180_000);
  });
});

describe("parseRolloutRow() and rolloutItems() on hostile or odd rows", () => {
  test("parseRolloutRow() refuses what is not a row", () => {
    for (const line of ["", "[]", "null", '{"type":1,"payload":{}}', '{"type":"x","payload":[]}', "{"]) {
      assert.equal(parseRolloutRow(line), undefined, line);
    }
    assert.deepEqual(parseRolloutRow('{"type":"x","payload":{},"ordinal":-1,"timestamp":7}'), {
      type: "x",
      payload: {},
    });
  });

  test("rolloutItems() gives nothing for fields of the wrong type", () => {
    const rows: RolloutRow[] = [
      { type: "response_item", payload: { type: "message", role: "user", content: 5 } },
      { type: "response_item", payload: { type: "function_call", name: "update_plan", arguments: "{" } },
      {
        type: "event_msg",
        payload: { type: "item_completed", item: { type: "CommandExecution", command: "npm test" } },
      },
      { type: "event_msg", payload: { type: "item_completed", item: { type: "FileChange", changes: null } } },
      { type: "event_msg", payload: { type: "token_count", info: null } },
      { type: "turn_context", payload: { cwd: 3 } },
    ];
    for (const row of rows) {
      const got = rolloutItems(row);
      assert.ok(got.length === 0 || (got.length === 1 && got[0].kind === "call"), JSON.stringify(row));
    }
  });

  test("rolloutItems() takes a user message without metadata unless it is the client's block or the summary", () => {
    const msg = (text: string): RolloutRow => ({
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text }] },
    });
    assert.deepEqual(rolloutItems(msg("fix it")), [{ kind: "typed", text: "fix it" }]);
    assert.deepEqual(rolloutItems(msg("<environment_context>x</environment_context>")), []);
    assert.deepEqual(rolloutItems(msg("Another language model started to solve this problem …")), []);
  });

  test("rolloutItems() keeps a failed patch apart and drops plan steps of unknown status", () => {
    const failed = rolloutItems({
      type: "event_msg",
      payload: {
        type: "item_completed",
        item: { type: "FileChange", status: "failed", changes: { "/p/a.js": { type: "update" } } },
      },
    });
    assert.deepEqual(failed, [{ kind: "edit", changes: [{ path: "/p/a.js", type: "update" }], ok: false }]);
    const plan = rolloutItems({
      type: "response_item",
      payload: {
        type: "function_call",
        name: "update_plan",
        arguments: JSON.stringify({ plan: [{ step: "a", status: "done" }, { step: "b", status: "pending" }] }),
      },
    });
    assert.deepEqual(plan, [{ kind: "plan", steps: [{ step: "b", status: "pending" }] }]);
  });
});

describe("isCodexInput()", () => {
  test("every captured Codex hook input is Codex's", () => {
    const dir = join(CODEX_FIXTURES, "hook-inputs");
    for (const name of readdirSync(dir)) {
      assert.ok(isCodexInput(JSON.parse(readFileSync(join(dir, name), "utf8"))), name);
    }
  });

  test("no captured Claude Code hook input is Codex's", () => {
    for (const version of ["claude-code-2.1.197", "claude-code-2.1.332"]) {
      const dir = join(CODEX_FIXTURES, "..", version, "hook-inputs");
      for (const name of readdirSync(dir)) {
        assert.ok(!isCodexInput(JSON.parse(readFileSync(join(dir, name), "utf8"))), `${version}/${name}`);
      }
    }
  });
});

describe("the Codex home and its config", () => {
  test("codexHome() takes an absolute CODEX_HOME, else ~/.codex", () => {
    assert.equal(codexHome({ CODEX_HOME: "/srv/cx" }), "/srv/cx");
    assert.equal(codexHome({ CODEX_HOME: "relative" }, "/home/a"), "/home/a/.codex");
    assert.equal(codexHome({}, "/home/a"), "/home/a/.codex");
  });

  test("autoCompactLimit() reads the top-level key only, as an integer", () => {
    const dir = tmp();
    const file = join(dir, "config.toml");
    writeFileSync(file, 'model = "x"\nmodel_auto_compact_token_limit = 120_000 # lower\n[profiles.a]\n');
    assert.equal(autoCompactLimit(file), 120_000);
    writeFileSync(file, "[profiles.a]\nmodel_auto_compact_token_limit = 5000\n");
    assert.equal(autoCompactLimit(file), undefined);
    writeFileSync(file, 'model_auto_compact_token_limit = "lots"\n');
    assert.equal(autoCompactLimit(file), undefined);
    assert.equal(autoCompactLimit(join(dir, "missing.toml")), undefined);
    assert.equal(autoCompactLimit(dir), undefined);
  });
});
