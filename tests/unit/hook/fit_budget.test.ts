import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { countTokens } from "../../../lib/transcript/count_tokens.ts";
import { CLAUDE_CODE_HOOK_TEXT_LIMIT, fitBudget } from "../../../lib/hook/fit_budget.ts";
import type { BudgetSection } from "../../../lib/hook/fit_budget.ts";
import { mulberry32 } from "../_rng.ts";

describe("countTokens()", () => {
  test("countTokens() rounds characters divided by four up", () => {
    assert.equal(countTokens(""), 0);
    assert.equal(countTokens("a"), 1);
    assert.equal(countTokens("abcd"), 1);
    assert.equal(countTokens("abcde"), 2);
    assert.equal(countTokens("x".repeat(10_000)), 2500);
  });

  test("countTokens() counts UTF-16 code units, so an emoji counts as two characters", () => {
    assert.equal(countTokens("😀😀"), 1);
    assert.equal(countTokens("😀😀😀"), 2);
  });
});

describe("fitBudget()", () => {
  test("fitBudget() includes everything in input order when it all fits", () => {
    const r = fitBudget([
      { id: "b", priority: 2, text: "bbb" },
      { id: "a", priority: 1, text: "aa" },
    ], { maxChars: 6 });
    assert.equal(r.text, "bbb\naa");
    assert.equal(r.usedChars, 6);
    assert.deepEqual(r.included.map((s) => [s.id, s.mode]), [["b", "full"], ["a", "full"]]);
    assert.deepEqual(r.dropped, []);
    assert.deepEqual(r.truncated, []);
  });

  test("fitBudget() counts the separator and drops the less important section when one character is missing", () => {
    const sections: BudgetSection[] = [
      { id: "b", priority: 2, text: "bbb" },
      { id: "a", priority: 1, text: "aa" },
    ];
    const r = fitBudget(sections, { maxChars: 5 });
    assert.equal(r.text, "aa");
    assert.deepEqual(r.dropped, [{ id: "b", priority: 2, chars: 3, fallback: false }]);
    const wide = fitBudget(sections, { maxChars: 7, separator: "\n\n\n" });
    assert.equal(wide.text, "aa", "a three-character separator no longer fits");
    assert.equal(fitBudget(sections, { maxChars: 7, separator: "--" }).text, "bbb--aa");
  });

  test("fitBudget() keeps filling with smaller sections after a large one does not fit", () => {
    const r = fitBudget([
      { id: "big", priority: 1, text: "x".repeat(50) },
      { id: "small", priority: 2, text: "yy" },
    ], { maxChars: 10 });
    assert.equal(r.text, "yy");
    assert.deepEqual(r.dropped.map((d) => d.id), ["big"]);
  });

  test("fitBudget() breaks priority ties by input order", () => {
    const r = fitBudget([
      { id: "first", priority: 1, text: "1111" },
      { id: "second", priority: 1, text: "2222" },
    ], { maxChars: 6 });
    assert.equal(r.text, "1111");
    assert.deepEqual(r.dropped.map((d) => d.id), ["second"]);
  });

  test("fitBudget() cuts a truncatable section at a line boundary and appends the marker", () => {
    const text = "line one\nline two\nline three\nline four\n" + "z".repeat(50);
    const r = fitBudget([{ id: "log", priority: 1, text, truncatable: true }], { maxChars: 40 });
    assert.equal(r.text, "line one\nline two\n[… truncated 72 chars]");
    assert.equal(r.usedChars, 40);
    assert.deepEqual(r.truncated, [{ id: "log", keptChars: 17, droppedChars: 72 }]);
    assert.deepEqual(r.included, [{ id: "log", mode: "truncated", text: r.text }]);
    assert.deepEqual(r.dropped, []);
  });

  test("fitBudget() cuts inside a line when the first line alone is too long, never splitting a surrogate pair", () => {
    const marker = (n: number) => `[-${n}]`;
    const r = fitBudget([{ id: "t", priority: 1, text: "ab😀cdefgh", truncatable: true }], {
      maxChars: 8,
      truncationMarker: marker,
    });
    // Room for 8 - "[-10]".length = 3 code units would split the emoji, so 2 are kept.
    assert.equal(r.text, "ab[-8]");
    assert.deepEqual(r.truncated, [{ id: "t", keptChars: 2, droppedChars: 8 }]);
  });

  test("fitBudget() uses the fallback when fewer than minChars would survive a cut", () => {
    const fallback = '<file path="plan.md" action="read"/>';
    const text = "a".repeat(300) + "\n" + "b".repeat(300);
    const sections: BudgetSection[] = [{ id: "plan", priority: 1, text, truncatable: true, minChars: 400, fallback }];
    const r = fitBudget(sections, { maxChars: 380 });
    assert.equal(r.text, fallback);
    assert.deepEqual(r.included, [{ id: "plan", mode: "fallback", text: fallback }]);
    assert.deepEqual(r.dropped, [{ id: "plan", priority: 1, chars: 601, fallback: true }]);
    assert.deepEqual(r.truncated, []);
    const roomier = fitBudget([{ ...sections[0], minChars: 200 }], { maxChars: 380 });
    assert.equal(roomier.text, "a".repeat(300) + "\n[… truncated 301 chars]");
  });

  test("fitBudget() drops a section whose fallback does not fit either", () => {
    const r = fitBudget([
      { id: "head", priority: 0, text: "0123456789" },
      { id: "file", priority: 1, text: "x".repeat(100), fallback: "<file/>" },
    ], { maxChars: 15 });
    assert.equal(r.text, "0123456789");
    assert.deepEqual(r.dropped, [{ id: "file", priority: 1, chars: 100, fallback: false }]);
  });

  test("fitBudget() handles a zero budget and rejects a negative or NaN budget", () => {
    const r = fitBudget([{ id: "a", priority: 1, text: "a", truncatable: true, fallback: "" }], { maxChars: 0 });
    assert.equal(r.text, "");
    assert.deepEqual(r.dropped, [{ id: "a", priority: 1, chars: 1, fallback: true }]);
    assert.equal(fitBudget([], { maxChars: 0 }).usedChars, 0);
    assert.throws(() => fitBudget([], { maxChars: -1 }), RangeError);
    assert.throws(() => fitBudget([], { maxChars: Number.NaN }), RangeError);
  });

  test("fitBudget() never exceeds maxChars and accounts for every section over random inputs", () => {
    const random = mulberry32(42);
    const int = (n: number) => Math.floor(random() * n);
    const chunk = () => {
      const parts = ["a", "bb", "\n", "😀", "<x/>", "line of text\n", "é"];
      let s = "";
      const n = int(40);
      for (let i = 0; i < n; i++) s += parts[int(parts.length)];
      return s;
    };
    const seen = { full: 0, truncated: 0, fallback: 0, dropped: 0 };
    for (let run = 0; run < 3000; run++) {
      const sections: BudgetSection[] = [];
      const n = int(8);
      for (let i = 0; i < n; i++) {
        sections.push({
          id: `s${i}`,
          priority: int(4),
          text: chunk(),
          truncatable: random() < 0.5,
          minChars: random() < 0.5 ? int(20) : undefined,
          fallback: random() < 0.5 ? `<f id="${i}"/>` : undefined,
        });
      }
      const separator = ["\n", "\n\n", "", " | "][int(4)];
      const maxChars = int(200);
      const r = fitBudget(sections, { maxChars, separator });
      const label = `run ${run}`;
      assert.ok(r.usedChars <= maxChars, label);
      assert.equal(r.usedChars, r.text.length, label);
      assert.equal(r.text, r.included.map((s) => s.text).join(separator), label);

      // Input order is kept, and every section is either included or dropped without fallback.
      const includedIds = r.included.map((s) => s.id);
      assert.deepEqual(includedIds, sections.map((s) => s.id).filter((id) => includedIds.includes(id)), label);
      for (const s of sections) {
        const inc = r.included.find((x) => x.id === s.id);
        const drop = r.dropped.find((x) => x.id === s.id);
        const cut = r.truncated.find((x) => x.id === s.id);
        seen[inc?.mode ?? "dropped"]++;
        if (inc?.mode === "full") {
          assert.equal(inc.text, s.text, label);
          assert.ok(!drop && !cut, label);
        } else if (inc?.mode === "truncated") {
          assert.ok(s.truncatable && cut && !drop, label);
          assert.ok(cut.keptChars >= Math.max(1, s.minChars ?? 1), label);
          assert.equal(cut.keptChars + cut.droppedChars, s.text.length, label);
          assert.equal(inc.text, s.text.slice(0, cut.keptChars) + `\n[… truncated ${cut.droppedChars} chars]`, label);
          const atLineEnd = s.text[cut.keptChars] === "\n";
          const noUsableNewline = s.text.lastIndexOf("\n", cut.keptChars) < Math.max(1, s.minChars ?? 1);
          assert.ok(atLineEnd || noUsableNewline, `${label}: cut at a line boundary when one is usable`);
          assert.ok(!/[\uD800-\uDBFF]$/.test(s.text.slice(0, cut.keptChars)), `${label}: no split surrogate pair`);
        } else if (inc?.mode === "fallback") {
          assert.equal(inc.text, s.fallback, label);
          assert.deepEqual(drop, { id: s.id, priority: s.priority, chars: s.text.length, fallback: true }, label);
        } else {
          assert.deepEqual(drop, { id: s.id, priority: s.priority, chars: s.text.length, fallback: false }, label);
        }
      }

      // Greedy by priority: a section is not whole only if its text did not fit in what was left.
      const order = sections.map((_, i) => i).sort((a, b) => sections[a].priority - sections[b].priority || a - b);
      let used = 0;
      let count = 0;
      for (const i of order) {
        const inc = r.included.find((x) => x.id === sections[i].id);
        const sep = count > 0 ? separator.length : 0;
        if (inc?.mode !== "full") {
          assert.ok(sections[i].text.length > maxChars - used - sep, `${label}: ${sections[i].id} would have fit`);
        }
        if (inc) {
          used += sep + inc.text.length;
          count++;
        }
      }

      const total = sections.reduce((sum, s) => sum + s.text.length, 0) +
        Math.max(0, sections.length - 1) * separator.length;
      if (total <= maxChars) assert.equal(r.included.filter((s) => s.mode === "full").length, sections.length, label);
    }
    for (const [mode, n] of Object.entries(seen)) assert.ok(n >= 100, `the generator exercises ${mode} (${n})`);
  });

  test("CLAUDE_CODE_HOOK_TEXT_LIMIT is the 10,000-character hook text limit", () => {
    assert.equal(CLAUDE_CODE_HOOK_TEXT_LIMIT, 10_000);
  });
});
