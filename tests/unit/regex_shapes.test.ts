// Issue #36, N3: no lazy scan between two literals on unbounded text. A lazy `(.*?)` or
// `[\s\S]*?` followed by a literal scans to the end of the text from every place it is tried: a
// slash-command row of many unclosed `<command-args>` cost PreCompact 15 s of CPU at 560 KB, and a
// Markdown heading followed by 5,000 spaces kept the steps reader busy for a minute. The texts are
// now cut first and searched with indexOf (lib/session/_tag_text.ts), or cut by a loop
// (lib/yaml/markdown_heading.ts, the dispatch status line). Each replacement is compared here with
// the expression it replaced on generated lines, and the sources are checked for the shape.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { markdownHeading } from "../../lib/yaml/markdown_heading.ts";
import { typedUserText } from "../../lib/session/user_requests.ts";
import { dispatchFile } from "../../lib/dispatch/dispatch_file.ts";
import { mulberry32 } from "./_rng.ts";

const ROOT = join(import.meta.dirname!, "..", "..");

/** A random string of `n` characters drawn from `alphabet`. */
function draw(rand: () => number, alphabet: readonly string[], n: number): string {
  let out = "";
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

describe("markdownHeading()", () => {
  const OLD = /^(#{1,6})\s+(.*?)\s*#*\s*$/;

  test("markdownHeading() gives what the old heading expression gave, on 20,000 generated lines", () => {
    const rand = mulberry32(3601);
    const alphabet = ["#", "#", "#", " ", " ", "\t", "x", "y", "\r", "\u2028", "\u00a0", "*", "\n"];
    for (let i = 0; i < 20_000; i++) {
      const line = draw(rand, alphabet, Math.floor(rand() * 14));
      const m = OLD.exec(line);
      const want = m === null ? null : { level: m[1].length, text: m[2] };
      assert.deepEqual(markdownHeading(line), want, JSON.stringify(line));
    }
  });

  test("markdownHeading() reads levels, closing hashes and what is not a heading", () => {
    assert.deepEqual(markdownHeading("## Phase 1: build ##"), { level: 2, text: "Phase 1: build" });
    assert.deepEqual(markdownHeading("###### six"), { level: 6, text: "six" });
    assert.deepEqual(markdownHeading("# C#"), { level: 1, text: "C" });
    assert.equal(markdownHeading("####### seven"), null);
    assert.equal(markdownHeading("#hashtag"), null);
    assert.equal(markdownHeading("#"), null);
  });

  test("markdownHeading() reads a heading followed by 200,000 spaces (the old expression's worst case)", () => {
    assert.deepEqual(markdownHeading("# a" + " ".repeat(200_000) + "b"), {
      level: 1,
      text: "a" + " ".repeat(200_000) + "b",
    });
  });
});

describe("typedUserText() on slash commands", () => {
  const NAME = /<command-name>\s*\/?([^<\s]{1,100})\s*<\/command-name>/;
  const ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
  /** The client's own commands among the generated names (issue #35: not requests). */
  const CLIENT = new Set(["compact"]);
  const row = (content: string) => ({ type: "user", message: { role: "user", content } });

  // The client writes one <command-name>; the old expression also tried a second one when the first
  // did not fit its grammar, the cut reads the first only.
  test("typedUserText() reads a command's name and arguments as the old expressions did, on 20,000 generated rows", () => {
    const rand = mulberry32(3602);
    const parts = [
      "</command-name>",
      "<command-args>",
      "</command-args>",
      "<command-message>",
      "/review",
      "compact",
      " ",
      "\n",
      "12",
      "<",
      "x y",
    ];
    for (let i = 0; i < 20_000; i++) {
      const text = "<command-name>" + draw(rand, parts, Math.floor(rand() * 10));
      const name = NAME.exec(text)?.[1];
      const args = ARGS.exec(text)?.[1]?.trim() ?? "";
      // A command without arguments is a request too (issue #35), the client's own never.
      const want = name === undefined || CLIENT.has(name) ? undefined : args === "" ? `/${name}` : `/${name} ${args}`;
      assert.equal(typedUserText(row(text)), want, JSON.stringify(text));
    }
  });

  test("typedUserText() on a row of 100,000 unclosed <command-args> finds no arguments", () => {
    const text = "<command-name>/review</command-name>" + "<command-args>x".repeat(100_000);
    assert.equal(typedUserText(row(text)), "/review");
  });

  test("typedUserText() keeps a command whose arguments are long, and drops one past the cut", () => {
    const long = "a".repeat(60_000);
    assert.equal(
      typedUserText(row(`<command-name>/review</command-name><command-args>${long}</command-args>`)),
      `/review ${long}`,
    );
    const over = "a".repeat(70_000);
    assert.equal(
      typedUserText(row(`<command-name>/review</command-name><command-args>${over}</command-args>`)),
      "/review",
    );
  });
});

/** lib/dispatch/dispatch_file.ts's normaliseStatus(), as the oracle's second half. */
function normalised(value: string): string | null {
  let s = value.replace(/[*_`]/g, " ").trim();
  const note = s.search(/\s[(\[—–]|\s-\s/);
  if (note > 0) s = s.slice(0, note);
  s = s.trim().toLowerCase().replace(/[\s_]+/g, "-").replace(/^-+|-+$/g, "");
  return s === "" ? null : s;
}

describe("dispatchFile() status lines", () => {
  const OLD =
    /^\s*(?:[-*]\s+)?(?:\|\s*)?(?:\*\*|__)?status(?:\*\*|__)?\s*(?::|\|)\s*(?:\*\*|__)?\s*:?\s*(.*?)\s*\|?\s*$/i;

  test("dispatchFile() reads a status line as the old expression did, on 2,000 generated lines", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-status-line-"));
    try {
      const file = join(dir, "d.md");
      const status = (line: string) => {
        writeFileSync(file, `${line}\n`);
        return dispatchFile(file)?.status ?? null;
      };
      const rand = mulberry32(3603);
      const parts = ["Status", ":", "|", " ", "\t", "**", "in progress", "done", "\u2028", "x", "-", "|"];
      for (let i = 0; i < 2_000; i++) {
        const line = "Status" + draw(rand, parts, Math.floor(rand() * 8));
        const m = OLD.exec(line);
        const want = m === null || !m[1] ? null : normalised(m[1]);
        assert.equal(status(line), want, JSON.stringify(line));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The shape itself, in lib/: a lazy quantifier on an unbounded class. Each one left is named here
// with why it is linear; a new one fails until it is replaced or added with its reason.
const ALLOWED: Readonly<Record<string, string>> = {
  "lib/orchestration/_policy.ts": "ITERATION is anchored at both ends and runs on one checkpoint field",
  "lib/detect/working_set.ts": "RESULT_LINE_PATH is anchored at the start and stops at the first ':' or space",
  "lib/cli/_install_plan.ts": "GUARD_FILE is anchored at both ends and runs on one settings command",
};
const LAZY_UNBOUNDED = /(?:\.|\]|\\[sSwWdD])[*+]\?/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(join(ROOT, dir)).sort()) {
    const rel = `${dir}/${f}`;
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
    else if (f.endsWith(".ts")) out.push(rel);
  }
  return out;
}

test("no file of lib/ holds a lazy quantifier on an unbounded class, but the three named", () => {
  const found: string[] = [];
  for (const file of sources("lib")) {
    const code = readFileSync(join(ROOT, file), "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
    if (LAZY_UNBOUNDED.test(code)) found.push(file);
  }
  assert.deepEqual(found.sort(), Object.keys(ALLOWED).sort());
  assert.ok(LAZY_UNBOUNDED.test("/<a>([\\s\\S]*?)<\\/a>/") && LAZY_UNBOUNDED.test("/(.*?)x/"), "the rule can fail");
  assert.ok(!LAZY_UNBOUNDED.test("/[\\w-]{0,40}?x/"), "a bounded lazy quantifier is fine");
});
