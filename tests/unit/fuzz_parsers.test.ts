// Property tests of the parsers a hostile repository feeds, on byte-mutated inputs from the fuzz
// harness's mutators (tests/fuzz/_mutate.ts): parseYaml and parseFrontmatter against the `yaml`
// package, scanTranscript against a naive forward parse. Seeded: FUZZ_SEED=<n> replays a run.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { Buffer } from "node:buffer";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseDocument } from "yaml";
import { parseYaml, type YamlErrorCode } from "../../lib/yaml/parse_yaml.ts";
import { parseFrontmatter } from "../../lib/yaml/parse_frontmatter.ts";
import { scanTranscript } from "../../lib/transcript/scan_transcript.ts";
import { mutateBytes } from "../fuzz/_mutate.ts";
import { Rng } from "../fuzz/_rng.ts";
import { generateTranscriptText } from "./_transcript_gen.ts";
import { forwardParse } from "./_forward_parse.ts";

const SEED = Number(process.env.FUZZ_SEED ?? 8008);
const FIXTURES = join(import.meta.dirname!, "..", "fixtures");
const ALL_CODES: YamlErrorCode[] = [
  "BAD_INDENT",
  "TAB_INDENT",
  "UNEXPECTED_TOKEN",
  "MISSING_COLON",
  "MULTILINE_KEY",
  "KEY_TOO_LONG",
  "UNTERMINATED_STRING",
  "UNTERMINATED_FLOW",
  "BAD_ESCAPE",
  "BAD_BLOCK_SCALAR",
  "BAD_LINE_BREAK",
  "DUPLICATE_KEY",
  "UNSUPPORTED_ANCHOR",
  "UNSUPPORTED_ALIAS",
  "UNSUPPORTED_TAG",
  "UNSUPPORTED_COMPLEX_KEY",
  "UNSUPPORTED_DIRECTIVE",
  "MULTI_DOCUMENT",
  "MAX_DEPTH",
  "MAX_SIZE",
  "UNTERMINATED_FRONTMATTER",
  "FRONTMATTER_NOT_MAPPING",
];

/** Corpus: every YAML and frontmatter fixture plus the orchestration runs. */
function corpus(ext: string, ...dirs: string[]): Buffer[] {
  const out: Buffer[] = [];
  for (const d of dirs) for (const n of readdirSync(d).sort()) if (n.endsWith(ext)) out.push(readFileSync(join(d, n)));
  return out;
}
const YAML_DOCS = [
  ...corpus(".yaml", join(FIXTURES, "yaml")),
  readFileSync(join(FIXTURES, "orchestration", "workspace", "projects", "PROJ-001-oss-release", "ORCHESTRATION.yaml")),
];
const MD_DOCS = corpus(".md", join(FIXTURES, "frontmatter"));

const INDICATOR = /[|>][-+]?[1-9]/;
const WHITE_LINE = /^[ \t]+$/m;

/** Inputs written to reach each error code; the fuzz pass below must reach them too or add to them. */
const TARGETED: [YamlErrorCode, string][] = [
  ["BAD_INDENT", "a:\n  b: 1\n c: 2\n"],
  ["TAB_INDENT", "a:\n\tb: 1\n"],
  ["UNEXPECTED_TOKEN", "a: ]\n"],
  ["MISSING_COLON", "a: 1\nb\n"],
  ["MULTILINE_KEY", '"a\n b": 1\n'],
  ["KEY_TOO_LONG", `${"k".repeat(1100)}: 1\n`],
  ["UNTERMINATED_STRING", 'a: "abc\n'],
  ["UNTERMINATED_FLOW", "a: [1, 2\n"],
  ["BAD_ESCAPE", 'a: "\\q"\n'],
  ["BAD_BLOCK_SCALAR", "a: |x\n  b\n"],
  ["BAD_LINE_BREAK", "a: 1\rb: 2\n"],
  ["DUPLICATE_KEY", "a: 1\na: 2\n"],
  ["UNSUPPORTED_ANCHOR", "a: &x 1\n"],
  ["UNSUPPORTED_ALIAS", "a: *x\n"],
  ["UNSUPPORTED_TAG", "a: !!str 1\n"],
  ["UNSUPPORTED_COMPLEX_KEY", "? a\n: 1\n"],
  ["UNSUPPORTED_DIRECTIVE", "%YAML 1.2\n---\na: 1\n"],
  ["MULTI_DOCUMENT", "a: 1\n---\nb: 2\n"],
  ["MAX_DEPTH", "a: " + "[".repeat(100) + "]".repeat(100) + "\n"],
  ["MAX_SIZE", "a: " + "x".repeat(1024 * 1024 + 10) + "\n"],
];
const TARGETED_FRONTMATTER: [YamlErrorCode, string][] = [
  ["UNTERMINATED_FRONTMATTER", "---\na: 1\n"],
  ["FRONTMATTER_NOT_MAPPING", "---\n- a\n---\nbody\n"],
];

function checkErrors(text: string, errors: { code: string; line: number; column: number }[]): void {
  const lines = text.split(/\r\n|\r|\n/).length;
  for (const e of errors) {
    assert.ok((ALL_CODES as string[]).includes(e.code), `unknown code ${e.code}`);
    assert.ok(Number.isInteger(e.line) && e.line >= 1 && e.line <= lines + 1, `line ${e.line} of ${lines}`);
    assert.ok(Number.isInteger(e.column) && e.column >= 1, `column ${e.column}`);
  }
}

describe("parsers on mutated input", () => {
  test("every YAML error code is reachable, from parseYaml() or parseFrontmatter()", () => {
    const seen = new Set<string>();
    for (const [code, text] of TARGETED) {
      const r = parseYaml(text);
      assert.equal(r.errors[0]?.code, code, JSON.stringify(text.slice(0, 40)));
      seen.add(code);
    }
    for (const [code, text] of TARGETED_FRONTMATTER) {
      assert.equal(parseFrontmatter(text).errors[0]?.code, code);
      seen.add(code);
    }
    assert.deepEqual([...seen].sort(), [...ALL_CODES].sort());
  });

  test("parseYaml() on 3,000 byte-mutated documents never throws, reports closed codes at real positions, and agrees with yaml when it accepts", () => {
    const rng = new Rng(SEED);
    const reached = new Set<string>();
    let accepted = 0;
    const disagreements: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const text = new TextDecoder().decode(mutateBytes(rng, rng.pick(YAML_DOCS)));
      const r = parseYaml(text);
      checkErrors(text.replace(/^\uFEFF/, ""), r.errors);
      for (const e of r.errors) reached.add(e.code);
      if (r.errors.length > 0) {
        assert.equal(r.value, undefined);
        continue;
      }
      accepted++;
      const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
      // Known, documented difference (see parse_yaml_differential.test.ts): a BOM yaml rejects.
      if (doc.errors.length > 0) {
        if (!text.includes("\uFEFF")) {
          disagreements.push(`only yaml rejects ${JSON.stringify(text.slice(0, 80))}: ${doc.errors[0].code}`);
        }
        continue;
      }
      // Found by this test, reported, not fixed here: a U+FEFF after the start of the document is
      // content to parseYaml() while yaml drops it; a silent difference, so it is only skipped.
      if (text.indexOf("\uFEFF", 1) !== -1) continue;
      // Also found and reported: with an indentation indicator (`>-1`), a whitespace-only line
      // indented deeper than the indicator is content to parseYaml() (as the spec's
      // s-nb-spaced-text reads it) and dropped by yaml.
      if (INDICATOR.test(text) && WHITE_LINE.test(text)) continue;
      if (!isDeepStrictEqual(r.value, doc.toJS({ maxAliasCount: -1 }))) {
        disagreements.push(`different value for ${JSON.stringify(text.slice(0, 80))}`);
      }
    }
    assert.deepEqual(disagreements.slice(0, 5), []);
    assert.ok(accepted > 150, `only ${accepted} mutants parsed: the mutations are too destructive to test agreement`);
    assert.ok(reached.size >= 10, `the mutations reached only ${[...reached].join(", ")}`);
  });

  test("parseFrontmatter() on 4,000 byte-mutated markdown files never throws and keeps the body intact when it parses", () => {
    const rng = new Rng(SEED + 1);
    for (let i = 0; i < 4000; i++) {
      const text = new TextDecoder().decode(mutateBytes(rng, rng.pick(MD_DOCS)));
      const r = parseFrontmatter(text);
      checkErrors(text.replace(/^\uFEFF/, ""), r.errors);
      if (r.errors.length === 0 && r.value !== undefined && r.value !== null) {
        const body = (r.value as { body?: unknown }).body;
        if (typeof body === "string") {
          assert.ok(
            text.replace(/\r\n/g, "\n").includes(body.replace(/\r\n/g, "\n")) || body === "",
            "the body is a suffix of the input",
          );
        }
      }
    }
  });

  test("parseYaml() returns MAX_DEPTH, not a stack overflow, for 100,000 nested flow and block collections", () => {
    for (
      const text of [
        "a: " + "[".repeat(100_000),
        "a: " + "{b: ".repeat(100_000),
        Array.from({ length: 1000 }, (_, i) => " ".repeat(i) + "k:").join("\n"),
      ]
    ) {
      const r = parseYaml(text);
      assert.equal(r.errors[0]?.code, "MAX_DEPTH");
    }
  });
});

/** The naive forward parse (tests/unit/_forward_parse.ts): the parsed objects, oldest first. */
function oracle(bytes: Buffer): unknown[] {
  return forwardParse(bytes).map((r) => r.value);
}

describe("scanTranscript() on mutated transcripts", () => {
  test("scanTranscript() yields the naive forward parse in reverse for 300 byte-mutated transcripts and odd chunk sizes", () => {
    const rng = new Rng(SEED + 2);
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-fuzz-scan-"));
    try {
      const bases = [1, 2, 3, 4].map((s) =>
        Buffer.from(
          generateTranscriptText({
            seed: SEED + s,
            turns: 2,
            toolResultBytes: 200,
            mess: { bom: s === 2, crlfRate: 0.3, blankRate: 0.1, invalidRate: 0.1 },
          }),
        )
      );
      for (let i = 0; i < 300; i++) {
        const bytes = Buffer.from(mutateBytes(rng, rng.pick(bases)));
        const path = join(dir, `t${i % 4}.jsonl`);
        writeFileSync(path, bytes);
        const chunkBytes = rng.pick([7, 64, 1000, 65536]);
        const got = [...scanTranscript(path, { chunkBytes })];
        assert.deepEqual(got, oracle(bytes).reverse(), `case ${i}, chunk ${chunkBytes}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("scanTranscript() on binary garbage, NUL runs and one 5 MB line yields only what the oracle yields", () => {
    const rng = new Rng(SEED + 3);
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-fuzz-scan-"));
    try {
      const inputs = [
        Buffer.from(rng.bytes(200_000)),
        Buffer.alloc(100_000),
        Buffer.concat([
          Buffer.from('{"type":"user","message":{"content":"'),
          Buffer.alloc(5 * 1024 * 1024, 0x61),
          Buffer.from('"}}\n{"type":"x"}'),
        ]),
        Buffer.concat([Buffer.from('{"type":"a"}\n'), Buffer.from(rng.bytes(5000)), Buffer.from('\n{"type":"b"}\r\n')]),
      ];
      for (const bytes of inputs) {
        const path = join(dir, "g.jsonl");
        writeFileSync(path, bytes);
        assert.deepEqual([...scanTranscript(path, { budgetBytes: 64 * 1024 * 1024 })], oracle(bytes).reverse());
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
