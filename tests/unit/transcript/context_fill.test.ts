import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contextFill } from "../../../lib/transcript/context_fill.ts";
import { autoCompactWindow, contextWindow } from "../../../lib/transcript/context_window.ts";
import { generateTranscriptText } from "../_transcript_gen.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures");
const LOCAL = join(import.meta.dirname!, "..", "..", "fixtures", "transcripts");
const CC = "claude-code-2.1.197";

interface Expected {
  tokens: number;
  source: "usage" | "boundary" | "none";
  afterCompaction: boolean;
  model?: string;
}

/**
 * Hand counts, worked out with jq over each file and checked by reading the rows named here.
 * tokens = input_tokens + cache_creation_input_tokens + cache_read_input_tokens of the row named.
 */
const REAL: Record<string, Expected> = {
  // Boundary on line 11 (manual, preTokens 15808, no postTokens) and no assistant row after it.
  "public/agentlogs__compact.jsonl": { tokens: 0, source: "none", afterCompaction: true },
  // Line 27 (msg …bU4qgg): 0 + 322 + 17573.
  "public/agentlogs__crud.jsonl": {
    tokens: 17895,
    source: "usage",
    afterCompaction: false,
    model: "claude-sonnet-4-5-20250929",
  },
  // Line 11 (msg …9X3sG1, main chain): 10 + 369 + 15650; the inline sidechain on line 8 is ignored.
  "public/agentlogs__subagent.jsonl": {
    tokens: 16029,
    source: "usage",
    afterCompaction: false,
    model: "claude-sonnet-4-5-20250929",
  },
  // Line 1507 (msg_01Lv5C7…), after the auto boundary on line 754: 1 + 7330 + 98729.
  "public/spotter__4d5611e5-auto-compaction.jsonl": {
    tokens: 106060,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-6",
  },
  // The summarizer's own transcript: every row is a sidechain row.
  "public/spotter__agent-acompact-e1f845.jsonl": { tokens: 0, source: "none", afterCompaction: false },
  // Line 10: 3 + 13835 + 11515.
  "public/spotter__short.jsonl": { tokens: 25353, source: "usage", afterCompaction: false, model: "claude-opus-4-6" },
  // Line 37 (msg …5jdsym): 47 + 1115 + 26504.
  "public/spotter__tool_heavy.jsonl": {
    tokens: 27666,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-6",
  },
  // Line 86, after the boundary on line 81 (postTokens 761, not used): 5466 + 0 + 12754.
  [`${CC}/transcripts/35dd7dd6-f123-4616-a3f3-fc3591e3ecbf.jsonl`]: {
    tokens: 18220,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  // Line 80, after the boundary on line 66: 6805 + 0 + 15875.
  [`${CC}/transcripts/7da37d46-8061-4f75-801e-26383afad198.jsonl`]: {
    tokens: 22680,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  // A /clear session with no assistant row at all.
  [`${CC}/transcripts/fb3383c2-7b71-46ae-a2bf-3c41096c3a36.jsonl`]: {
    tokens: 0,
    source: "none",
    afterCompaction: false,
  },
  // Snapshots taken while the hooks ran. Line 18: 5759 + 0 + 13435, before any compaction.
  [`${CC}/transcript-snapshots/at-PreCompact-095146.jsonl`]: {
    tokens: 19194,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-PostCompact-095146.jsonl`]: {
    tokens: 19194,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-SessionStart-095146.jsonl`]: {
    tokens: 19194,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-8",
  },
  // Line 44, after the boundary on line 26: 5900 + 0 + 13766.
  [`${CC}/transcript-snapshots/at-PreCompact-095148.jsonl`]: {
    tokens: 19666,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-PostCompact-095148.jsonl`]: {
    tokens: 19666,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-SessionStart-095148.jsonl`]: {
    tokens: 19666,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  // Line 72 (the mock's inflated usage), after the boundary on line 53: 12 + 0 + 172000.
  [`${CC}/transcript-snapshots/at-PreCompact-095150.jsonl`]: {
    tokens: 172012,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-PostCompact-095150.jsonl`]: {
    tokens: 172012,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-SessionStart-095150.jsonl`]: {
    tokens: 172012,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  // Line 14 (msg_d8d732…): 6683 + 0 + 15593.
  [`${CC}/transcript-snapshots/at-PreCompact-095153.jsonl`]: {
    tokens: 22276,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-PostCompact-095154.jsonl`]: {
    tokens: 22276,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-SessionStart-095154.jsonl`]: {
    tokens: 22276,
    source: "usage",
    afterCompaction: false,
    model: "claude-opus-4-8",
  },
  // Line 33, after the boundary on line 22: 6475 + 0 + 15107.
  [`${CC}/transcript-snapshots/at-PreCompact-095156.jsonl`]: {
    tokens: 21582,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-PostCompact-095156.jsonl`]: {
    tokens: 21582,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-SessionStart-095156.jsonl`]: {
    tokens: 21582,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  // Line 57, after the boundary on line 41: 6497 + 0 + 15158.
  [`${CC}/transcript-snapshots/at-PreCompact-095158.jsonl`]: {
    tokens: 21655,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-PostCompact-095159.jsonl`]: {
    tokens: 21655,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
  [`${CC}/transcript-snapshots/at-SessionStart-095159.jsonl`]: {
    tokens: 21655,
    source: "usage",
    afterCompaction: true,
    model: "claude-opus-4-8",
  },
};

describe("contextFill() on real transcripts", () => {
  for (const [name, want] of Object.entries(REAL)) {
    test(`contextFill() counts ${want.tokens} tokens (${want.source}) in ${name}`, () => {
      const fill = contextFill(join(FIXTURES, name));
      // The captures' model, Opus 4.8, has a window of 1M tokens of its own.
      const window = want.model === "claude-opus-4-8" ? 1_000_000 : 200_000;
      const expected: Record<string, unknown> = {
        tokens: want.tokens,
        window,
        fraction: want.tokens / window,
        source: want.source,
        afterCompaction: want.afterCompaction,
      };
      if (want.model !== undefined) expected.model = want.model;
      assert.deepEqual(fill, expected);
    });
  }
});

describe("contextFill()", () => {
  test("contextFill() takes the newest main-chain usage and ignores agent_progress, sidechain and synthetic rows", () => {
    // fill_agent_progress.jsonl: msg_main 5 + 1000 + 50000; the later rows carry 210,003
    // (agent_progress), 250,005 (sidechain) and 0 (synthetic) tokens.
    const fill = contextFill(join(LOCAL, "fill_agent_progress.jsonl"));
    assert.deepEqual(fill, {
      tokens: 51005,
      window: 200_000,
      fraction: 51005 / 200_000,
      source: "usage",
      afterCompaction: false,
      model: "claude-opus-4-6",
    });
  });

  test("contextFill() uses postTokens of a compaction with no assistant row after it", () => {
    // fill_boundary_post_tokens.jsonl: boundary postTokens 4321; the 150,002 before it is stale.
    const fill = contextFill(join(LOCAL, "fill_boundary_post_tokens.jsonl"));
    assert.deepEqual(fill, {
      tokens: 4321,
      window: 200_000,
      fraction: 4321 / 200_000,
      source: "boundary",
      afterCompaction: true,
    });
  });

  test("contextFill() uses the last non-compaction iteration when usage has iterations", () => {
    // fill_iterations.jsonl: iteration 2 is 7 + 300 + 20600; the top-level sum is 41507.
    assert.equal(contextFill(join(LOCAL, "fill_iterations.jsonl")).tokens, 20907);
  });

  test("contextFill() counts a message written as one row per content block once", () => {
    // fill_agent_progress.jsonl rows a1 and a2 are two blocks of msg_main, each with 51005
    // input-side tokens; a sum would give 102010.
    assert.equal(contextFill(join(LOCAL, "fill_agent_progress.jsonl"), { budgetBytes: 1 << 20 }).tokens, 51005);
  });

  test("contextFill() picks a 1M window for a [1m] model, for more than 200k tokens, or when told", () => {
    const small = join(LOCAL, "fill_agent_progress.jsonl");
    const m1 = contextFill(small, { model: "claude-opus-4-6[1M]" });
    assert.equal(m1.window, 1_000_000);
    assert.equal(m1.model, "claude-opus-4-6[1M]");
    assert.equal(m1.fraction, 51005 / 1_000_000);
    const big = contextFill(join(LOCAL, "fill_over_200k.jsonl"));
    assert.equal(big.tokens, 250002);
    assert.equal(big.window, 1_000_000);
    assert.equal(contextFill(small, { windowTokens: 100_000 }).fraction, 0.51005);
    assert.equal(
      contextFill(join(LOCAL, "fill_over_200k.jsonl"), { windowTokens: 200_000 }).fraction,
      250002 / 200_000,
    );
  });

  test("contextFill() gives source none for a missing file or an empty path", () => {
    const none = { tokens: 0, window: 200_000, fraction: 0, source: "none", afterCompaction: false };
    assert.deepEqual(contextFill(join(tmpdir(), "missing-🚀.jsonl")), none);
    assert.deepEqual(contextFill(""), none);
  });

  test("contextFill() sees nothing when the budget is smaller than the newest assistant line", () => {
    const path = join(LOCAL, "fill_over_200k.jsonl");
    const lastLine = readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!;
    // The line is complete only once the `\n` before it is read: line + final `\n` + that `\n`.
    assert.equal(contextFill(path, { budgetBytes: lastLine.length + 1 }).source, "none");
    assert.equal(contextFill(path, { budgetBytes: lastLine.length + 2 }).tokens, 250002);
  });

  test("contextFill() matches a naive forward computation on generated transcripts", () => {
    const dir = mkdtempSync(join(tmpdir(), "context-fill-"));
    try {
      for (let seed = 1; seed <= 40; seed++) {
        const text = generateTranscriptText({
          seed,
          turns: 1 + (seed % 7),
          toolResultBytes: 200,
          compactEvery: seed % 3 === 0 ? 0 : 1 + (seed % 4),
          endWithCompaction: seed % 5 === 0,
          postTokens: seed % 2 === 0 ? "always" : "random",
          mess: { crlfRate: seed % 4 === 0 ? 0.5 : 0, invalidRate: 0.1, lastLine: seed % 3 === 1 ? "half" : "newline" },
        });
        const path = join(dir, `g-${seed}.jsonl`);
        writeFileSync(path, text);
        assert.deepEqual(contextFill(path), forwardFill(text), `seed ${seed}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("contextWindow()", () => {
  test("contextWindow() is 1M for a [1m] suffix in any case and 200k otherwise", () => {
    assert.equal(contextWindow("claude-opus-4-6[1m]"), 1_000_000);
    assert.equal(contextWindow("sonnet[1M]"), 1_000_000);
    assert.equal(contextWindow("claude-opus-4-6"), 200_000);
    assert.equal(contextWindow("claude-1m"), 200_000);
    assert.equal(contextWindow(), 200_000);
  });

  test("contextWindow() is 1M once more than 200k tokens were observed", () => {
    assert.equal(contextWindow(undefined, 200_000), 200_000);
    assert.equal(contextWindow(undefined, 200_001), 1_000_000);
    assert.equal(contextWindow("claude-opus-4-6", 350_000), 1_000_000);
  });

  test("contextWindow() is 1M for a display name that says 1M context", () => {
    assert.equal(contextWindow("Opus 4.6 (1M context)"), 1_000_000);
    assert.equal(contextWindow("opus 4.6 (1m CONTEXT)"), 1_000_000);
    assert.equal(contextWindow("Opus 4.6 (21M context)"), 200_000);
    assert.equal(contextWindow("claude-1m-context-free"), 200_000);
  });
});

describe("autoCompactWindow()", () => {
  test("autoCompactWindow() reads CLAUDE_CODE_AUTO_COMPACT_WINDOW as Claude Code does", () => {
    assert.equal(autoCompactWindow("200000"), 200_000);
    assert.equal(autoCompactWindow(" 200k "), 200_000);
    assert.equal(autoCompactWindow("1M"), 1_000_000);
    assert.equal(autoCompactWindow("0.5m"), 500_000);
    assert.equal(autoCompactWindow("2e5"), 200_000);
    assert.equal(autoCompactWindow("200_000"), 200_000);
    // Below Claude Code's least window: raised to it.
    assert.equal(autoCompactWindow("5000"), 100_000);
    assert.equal(autoCompactWindow("200"), 100_000);
    for (const bad of [undefined, "", "k", "soon", "-200000", "0", "0.2", "1e400", "200 000", "0x30d40", "Infinity"]) {
      assert.equal(autoCompactWindow(bad), undefined, String(bad));
    }
  });
});

describe("contextFill() window hints", () => {
  const row = (model: string, tokens: number) =>
    JSON.stringify({
      type: "assistant",
      uuid: "a1",
      parentUuid: null,
      isSidechain: false,
      message: { id: "m1", model, role: "assistant", content: [], usage: { input_tokens: tokens, output_tokens: 1 } },
    }) + "\n";

  test("contextFill() takes the 1M window from the row's model id even when the setting lacks it", () => {
    const dir = mkdtempSync(join(tmpdir(), "context-fill-hint-"));
    try {
      const path = join(dir, "t.jsonl");
      writeFileSync(path, row("claude-sonnet-4-5[1m]", 150_000));
      assert.equal(contextFill(path).window, 1_000_000);
      assert.equal(contextFill(path, { model: "claude-sonnet-4-5" }).window, 1_000_000);
      assert.equal(contextFill(path, { model: "claude-sonnet-4-5" }).model, "claude-sonnet-4-5");
      writeFileSync(path, row("claude-sonnet-4-5", 150_000));
      assert.equal(contextFill(path, { stopAtUsage: true }).window, 200_000);
      assert.equal(contextFill(path, { model: "sonnet[1m]", stopAtUsage: true }).window, 1_000_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("contextFill() takes more than 200k client-reported tokens as proof of the 1M window, and caps it", () => {
    const dir = mkdtempSync(join(tmpdir(), "context-fill-hint-"));
    try {
      const path = join(dir, "t.jsonl");
      writeFileSync(path, row("claude-opus-4-6", 150_000));
      assert.equal(contextFill(path, { contextTokens: 200_000 }).window, 200_000);
      assert.equal(contextFill(path, { contextTokens: 240_000 }).window, 1_000_000);
      assert.equal(contextFill(path, { contextTokens: 240_000 }).tokens, 150_000);
      // The auto-compact window caps an inferred window and a configured one alike.
      const capped = contextFill(path, { model: "opus[1m]", maxWindowTokens: 300_000 });
      assert.equal(capped.window, 300_000);
      assert.equal(capped.fraction, 0.5);
      assert.equal(contextFill(path, { maxWindowTokens: 1_000_000 }).window, 200_000);
      assert.equal(contextFill(path, { windowTokens: 500_000, maxWindowTokens: 250_000 }).window, 250_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The reference: a forward pass over every line, as the hook contract describes it. */
function forwardFill(text: string): Record<string, unknown> {
  let boundary = -1;
  let post: number | undefined;
  let usageIndex = -1;
  let tokens = 0;
  let model: string | undefined;
  // deno-lint-ignore no-explicit-any -- rows of any shape, read as the forward oracle reads them
  const rows: Record<string, any>[] = [];
  for (const line of text.replace(/^\uFEFF/, "").split("\n")) {
    try {
      const v = JSON.parse(line);
      if (v && typeof v === "object" && !Array.isArray(v)) rows.push(v);
    } catch { /* skip */ }
  }
  rows.forEach((r, i) => {
    if (r.isSidechain === true) return;
    if (r.type === "system" && r.subtype === "compact_boundary") {
      boundary = i;
      post = r.compactMetadata?.postTokens;
    }
    if (r.type === "assistant" && r.message?.usage && !r.isApiErrorMessage && r.message.model !== "<synthetic>") {
      const u = r.message.usage;
      usageIndex = i;
      tokens = u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);
      model = r.message.model;
    }
  });
  let source = "none";
  if (usageIndex > boundary) source = "usage";
  else if (boundary >= 0 && typeof post === "number") {
    source = "boundary";
    tokens = post;
    model = undefined;
  } else {
    tokens = 0;
    model = undefined;
  }
  const window = tokens > 200_000 ? 1_000_000 : 200_000;
  const out: Record<string, unknown> = {
    tokens,
    window,
    fraction: tokens / window,
    source,
    afterCompaction: boundary >= 0,
  };
  if (model !== undefined) out.model = model;
  return out;
}

test("contextFill() with stopAtUsage gives the same tokens without looking further back", () => {
  const p = join(mkdtempSync(join(tmpdir(), "rehydrate-fill-")), "t.jsonl");
  const boundary = {
    type: "system",
    subtype: "compact_boundary",
    isSidechain: false,
    compactMetadata: { trigger: "auto", preTokens: 1, postTokens: 5 },
  };
  const assistant = {
    type: "assistant",
    isSidechain: false,
    message: {
      id: "m1",
      model: "claude-x",
      usage: { input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 30, output_tokens: 4 },
    },
  };
  writeFileSync(p, JSON.stringify(boundary) + "\n" + JSON.stringify(assistant) + "\n");
  const full = contextFill(p);
  const fast = contextFill(p, { stopAtUsage: true });
  assert.equal(full.tokens, 60);
  assert.equal(fast.tokens, 60);
  assert.equal(full.afterCompaction, true);
  assert.equal(fast.afterCompaction, false);
});

test("contextFill() with stopAtUsage agrees with the full reverse scan on generated transcripts, budgets and chunk edges", () => {
  // The full reverse scan (without stopAtUsage) is the oracle: the same tokens, source and model,
  // and afterCompaction when a boundary, not a usage, decided. Files up to a few hundred KB, so the
  // newest usage row is sometimes beyond the first 64 KiB chunk, lines cross chunk edges,
  // multi-byte characters are cut there, and budgets end inside lines.
  const dir = mkdtempSync(join(tmpdir(), "context-fill-tail-"));
  try {
    for (let seed = 1; seed <= 60; seed++) {
      const text = generateTranscriptText({
        seed,
        turns: 2 + (seed % 9),
        toolResultBytes: [200, 5_000, 30_000, 90_000][seed % 4],
        compactEvery: seed % 3 === 0 ? 0 : 1 + (seed % 4),
        endWithCompaction: seed % 5 === 0,
        postTokens: seed % 2 === 0 ? "always" : "random",
        windowsRate: seed % 6 === 0 ? 0.5 : 0,
        mess: { crlfRate: seed % 4 === 0 ? 0.5 : 0, invalidRate: 0.1, lastLine: seed % 3 === 1 ? "half" : "newline" },
      });
      const path = join(dir, `g-${seed}.jsonl`);
      writeFileSync(path, (seed % 7 === 0 ? "\ufeff" : "") + text);
      for (const budgetBytes of [undefined, 1_000 + seed * 997, 65_536, 70_000]) {
        const full = contextFill(path, { budgetBytes });
        const fast = contextFill(path, { budgetBytes, stopAtUsage: true });
        assert.deepEqual(
          fast,
          { ...full, afterCompaction: full.source === "usage" ? false : full.afterCompaction },
          `seed ${seed}, budget ${budgetBytes}`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
