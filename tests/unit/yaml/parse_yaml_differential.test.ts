/**
 * Differential test of parseYaml() against the `yaml` package on documents produced by our own
 * seeded generator (not by `yaml`), plus a mutation pass on the same documents.
 *
 * Known, accepted differences (we are stricter; never a silent misparse):
 * - anchors, aliases, tags, complex keys, directives: rejected with UNSUPPORTED_* codes;
 * - a lone CR is BAD_LINE_BREAK (`yaml` treats it as content in some places);
 * - a tab anywhere in the indentation before content is TAB_INDENT (`yaml` allows it after
 *   enough spaces);
 * - keys equal after stringification (`1` and `"1"`) are DUPLICATE_KEY;
 * - empty flow keys (`{: a}`) are UNEXPECTED_TOKEN;
 * - a BOM before a root block sequence is accepted (`yaml` 2.9 reports an error there).
 * So in the mutation pass "only we report an error" is counted and allowed, while "only `yaml`
 * reports an error" or a different value fails the test.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import process from "node:process";
import { parseDocument } from "yaml";
import { parseYaml } from "../../../lib/yaml/parse_yaml.ts";
import { mulberry32 } from "../_rng.ts";

const SEED = Number(process.env.YAML_DIFF_SEED ?? 20260219);
const DOCS = 10_000;
const MUTANTS = 4_000;

const WORDS = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "resume",
  "phase",
  "gate",
  "qg-2",
  "S-014",
  "0.960",
  "a:b",
  "a#b",
  "x-y",
  "[br]",
  "{c}",
  "50%",
  "héllo",
  "✓",
  "it's",
  'say "hi"',
  "path/to/file.md",
  "http://example.com/x?y=1",
  "2026-01-03T15:30:00",
  "v1.2.3",
  "-dash",
  "?q",
  "a,b",
  "C++",
  "~tilde",
];
const FLOW_WORDS = ["alpha", "beta", "x-y", "héllo", "v1.2", "it's", "path/to/f.md", "-d", "50%", "~t"];
const SPECIAL_PLAIN = [
  "true",
  "False",
  "TRUE",
  "null",
  "Null",
  "~",
  "0",
  "-0",
  "+12",
  "007",
  "0x1F",
  "0o17",
  "1.5",
  "-2.",
  ".5",
  "1e3",
  "-1.2E-4",
  ".inf",
  "-.Inf",
  ".NaN",
  "1_000",
  "0b101",
  "yes",
  "no",
  "on",
  "12:30",
  "2026-01-03",
  "1.0.0",
  "NaN",
  "Infinity",
  "9007199254740993",
  "+.inf",
  "0x",
  "0o8",
];
const DQ_PIECES = [
  "\\n",
  "\\t",
  '\\"',
  "\\\\",
  "\\/",
  "\\u00e9",
  "\\U0001F600",
  "\\x41",
  "\\0",
  "\\e",
  "\\N",
  "\\_",
  "\\L",
  "\\P",
  "\\ ",
  "'",
  "#",
  ": ",
  " # ",
  "é",
  "✓",
  "[x]",
  "{y}",
  ",",
  "word",
  "two words",
];
const SQ_PIECES = ["''", '"', "#", ": ", " # ", "\\n", "é", "[x]", ",", "word", "two words"];

type Node =
  | { t: "map"; entries: [string, Node][] }
  | { t: "seq"; items: Node[] }
  | { t: "plain"; text: string; multi: boolean }
  | { t: "sq" | "dq"; text: string; multi: boolean }
  | { t: "block"; header: string; lines: string[]; trailing: number }
  | { t: "flow"; text: string }
  | { t: "null"; text: string };

/** Generates one document; returns its YAML text. */
function generateDocument(rnd: () => number): string {
  const g = new Gen(rnd);
  return g.document();
}

class Gen {
  r: () => number;
  out: string[] = [];
  constructor(r: () => number) {
    this.r = r;
  }
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(a: readonly T[]): T {
    return a[this.int(a.length)];
  }
  sp(): string {
    return this.chance(0.85) ? " " : this.pick(["  ", "   ", " \t", "\t"]);
  }

  document(): string {
    const out = this.out;
    if (this.chance(0.2)) out.push("# leading comment\n");
    const explicit = this.chance(0.25);
    if (explicit) out.push(this.chance(0.3) ? "--- # start\n" : "---\n");
    const root = this.chance(0.65) ? this.map(0) : this.seq(0);
    if (root.t === "map") this.mapEntries(root.entries, 0, false);
    else if (root.t === "seq") this.seqItems(root.items, 0, false);
    if (this.chance(0.15)) out.push("# trailing comment\n");
    if (explicit && this.chance(0.3)) out.push("...\n");
    let text = out.join("");
    if (this.chance(0.1)) text = text.slice(0, -1); // no final newline
    if (this.chance(0.1)) text = text.replace(/\n/g, "\r\n");
    // `yaml` 2.9 rejects a BOM directly before a block sequence, so only maps get one.
    if (root.t === "map" && this.chance(0.05)) text = "\ufeff" + text;
    return text;
  }

  node(depth: number, inFlowOk = true): Node {
    const x = this.r();
    if (depth < 5 && x < 0.18) return this.map(depth + 1);
    if (depth < 5 && x < 0.32) return this.seq(depth + 1);
    if (x < 0.55) return this.plain();
    if (x < 0.63) return { t: "sq", text: this.quotedText(SQ_PIECES), multi: this.chance(0.3) };
    if (x < 0.73) return { t: "dq", text: this.quotedText(DQ_PIECES), multi: this.chance(0.3) };
    if (x < 0.85) return this.block();
    if (x < 0.95 && inFlowOk) return { t: "flow", text: this.flow(0) };
    return { t: "null", text: this.pick(["", "", "~", "null", "NULL"]) };
  }
  map(depth: number): Node {
    const n = 1 + this.int(4);
    const entries: [string, Node][] = [];
    for (let i = 0; i < n; i++) entries.push([this.key(i), this.node(depth)]);
    return { t: "map", entries };
  }
  seq(depth: number): Node {
    const n = 1 + this.int(4);
    const items: Node[] = [];
    for (let i = 0; i < n; i++) items.push(this.node(depth));
    return { t: "seq", items };
  }
  key(i: number): string {
    const x = this.r();
    if (x < 0.1) return String(i + 100);
    if (x < 0.2) return `"k ${i}: \\t"`;
    if (x < 0.27) return `'it''s ${i}'`;
    if (x < 0.3) return `true${i}`;
    return this.pick(["name", "phase", "files_to_load", "a b", "x-y", "déjà", "k.v", "url"]) + "_" + i;
  }
  plain(): Node {
    if (this.chance(0.3)) return { t: "plain", text: this.pick(SPECIAL_PLAIN), multi: false };
    const n = 1 + this.int(5);
    const words: string[] = [];
    for (let i = 0; i < n; i++) words.push(this.pick(WORDS));
    // First word must not start with an indicator the plain style forbids.
    while (/^[-?:,[\]{}#&*!|>'"%@`~]/.test(words[0]) && !/^[-?][a-z]/.test(words[0])) words[0] = "w" + words[0];
    return { t: "plain", text: words.join(" "), multi: n > 2 && this.chance(0.4) };
  }
  quotedText(pieces: readonly string[]): string {
    const n = this.int(6);
    let s = "";
    for (let i = 0; i < n; i++) s += (i > 0 && this.chance(0.5) ? " " : "") + this.pick(pieces);
    return s;
  }
  block(): Node {
    const style = this.pick(["|", ">"]);
    const chomp = this.pick(["", "-", "+"]);
    const explicit = this.chance(0.15) ? String(1 + this.int(3)) : "";
    const header = style + (this.chance(0.5) ? explicit + chomp : chomp + explicit);
    const lines: string[] = [];
    const n = 1 + this.int(5);
    for (let i = 0; i < n; i++) {
      const x = this.r();
      if (i > 0 && x < 0.15) lines.push("");
      else if (x < 0.3 && (i > 0 || explicit)) lines.push("  " + this.pick(WORDS));
      else lines.push(this.pick(WORDS) + (this.chance(0.5) ? " " + this.pick(WORDS) : ""));
    }
    if (lines[lines.length - 1] === "") lines.push("end");
    return { t: "block", header, lines, trailing: this.int(3) };
  }
  flowScalar(): string {
    const x = this.r();
    if (x < 0.3) return this.pick(SPECIAL_PLAIN.filter((s) => !s.includes(":")));
    if (x < 0.45) return `"${this.pick(["a, b", "[x]", "q\\tq", "k: v", ""])}"`;
    if (x < 0.55) return `'${this.pick(["a, b", "{y}", "it''s", ""])}'`;
    return this.pick(FLOW_WORDS) + (this.chance(0.3) ? " " + this.pick(FLOW_WORDS) : "");
  }
  flow(depth: number): string {
    const isMap = this.chance(0.4);
    const n = this.int(4);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = depth < 2 && this.chance(0.2) ? this.flow(depth + 1) : this.flowScalar();
      const k = this.pick(["k", "key", "x-y", "'q k", '"d k']);
      const key = k[0] === "'" || k[0] === '"' ? k + i + k[0] : k + i;
      parts.push(isMap ? `${key}:${this.sp()}${v}` : v);
    }
    const sep = () => "," + (this.chance(0.8) ? " " : "");
    let body = parts.join(sep());
    if (n > 0 && this.chance(0.15)) body += ",";
    return isMap ? (this.chance(0.5) ? `{ ${body} }` : `{${body}}`) : `[${body}]`;
  }

  comment(): string {
    return this.chance(0.12) ? this.pick([" # note", "  # c: x", "\t# tab comment"]) : "";
  }
  commentLine(ind: number): void {
    if (this.chance(0.06)) this.out.push(" ".repeat(this.int(ind + 1)) + "# between\n");
    if (this.chance(0.04)) this.out.push("\n");
  }

  mapEntries(entries: [string, Node][], ind: number, firstInline: boolean): void {
    entries.forEach(([k, v], i) => {
      if (i > 0 || !firstInline) {
        this.commentLine(ind);
        this.out.push(" ".repeat(ind));
      }
      this.out.push(k + ":");
      this.value(v, ind, "map");
    });
  }
  seqItems(items: Node[], ind: number, firstInline: boolean): void {
    items.forEach((v, i) => {
      if (i > 0 || !firstInline) {
        this.commentLine(ind);
        this.out.push(" ".repeat(ind));
      }
      this.out.push("-");
      this.value(v, ind, "seq");
    });
  }

  /** Emits a node after `key:` or `-`; `ind` is the owning collection's indentation. */
  value(v: Node, ind: number, ctx: "map" | "seq"): void {
    const out = this.out;
    const step = 1 + this.int(4);
    switch (v.t) {
      case "map":
        if (ctx === "seq" && this.chance(0.6)) {
          const gap = 1 + (this.chance(0.2) ? this.int(3) : 0);
          out.push(" ".repeat(gap));
          this.mapEntries(v.entries, ind + 1 + gap, true);
        } else {
          out.push(this.comment() + "\n");
          this.mapEntries(v.entries, ind + step, false);
        }
        return;
      case "seq":
        if (ctx === "seq" && this.chance(0.4)) {
          out.push(" ");
          this.seqItems(v.items, ind + 2, true);
        } else if (ctx === "map" && this.chance(0.4)) {
          out.push(this.comment() + "\n");
          this.seqItems(v.items, ind, false);
        } else {
          out.push(this.comment() + "\n");
          this.seqItems(v.items, ind + step, false);
        }
        return;
      case "null":
        out.push((v.text ? this.sp() + v.text : "") + this.comment() + "\n");
        return;
      case "flow":
        out.push(this.sp() + v.text + this.comment() + (this.chance(0.1) ? "  " : "") + "\n");
        return;
      case "plain": {
        const words = v.text.split(" ");
        out.push(this.sp());
        if (!v.multi) {
          out.push(v.text + this.comment() + "\n");
          return;
        }
        const cont = " ".repeat(ind + 1 + this.int(3));
        let line = words[0];
        for (let i = 1; i < words.length; i++) {
          if (this.chance(0.4)) {
            out.push(line + (this.chance(0.1) ? " " : "") + "\n" + (this.chance(0.2) ? "\n" : "") + cont);
            line = words[i];
          } else line += " " + words[i];
        }
        out.push(line + this.comment() + "\n");
        return;
      }
      case "sq":
      case "dq": {
        const q = v.t === "sq" ? "'" : '"';
        out.push(this.sp() + q);
        if (!v.multi) {
          out.push(v.text + q + this.comment() + "\n");
          return;
        }
        const cont = " ".repeat(ind + 1 + this.int(3));
        const parts = v.text.split(" ");
        let s = parts[0];
        for (let i = 1; i < parts.length; i++) {
          // Only break where the previous piece does not end in an escape backslash.
          if (this.chance(0.4) && !s.endsWith("\\")) {
            const esc = v.t === "dq" && this.chance(0.2) ? "\\" : "";
            s += esc + "\n" + (this.chance(0.2) ? "\n" : "") + cont + parts[i];
          } else s += " " + parts[i];
        }
        out.push(s + q + this.comment() + "\n");
        return;
      }
      case "block": {
        const m = /[1-9]/.exec(v.header);
        const contentInd = m ? ind + Number(m[0]) : ind + step;
        out.push(this.sp() + v.header + this.comment() + "\n");
        for (const l of v.lines) out.push(l === "" ? "\n" : " ".repeat(contentInd) + l + "\n");
        for (let i = 0; i < v.trailing; i++) out.push("\n");
        return;
      }
    }
  }
}

// Chunks keep each test well under Bun's default 5 s per-test timeout.
const CHUNKS = 5;
for (let chunk = 0; chunk < CHUNKS; chunk++) {
  const seed = SEED + chunk;
  test(`parseYaml() equals yaml.parse() on ${DOCS / CHUNKS} generated documents (seed ${seed})`, () => {
    diffGenerated(seed, DOCS / CHUNKS);
  });
}

function diffGenerated(SEED: number, count: number): void {
  const rnd = mulberry32(SEED);
  for (let i = 0; i < count; i++) {
    const text = generateDocument(rnd);
    const doc = parseDocument(text, { logLevel: "silent" });
    const where = `seed ${SEED}, document ${i}: ${JSON.stringify(text)}`;
    assert.deepEqual(doc.errors.map((e) => e.message), [], `generator produced invalid YAML (${where})`);
    const ours = parseYaml(text);
    assert.deepEqual(ours.errors, [], where);
    assert.deepStrictEqual(ours.value, doc.toJS(), where);
  }
}

const ALPHABET = " \n\t:-#'\"[]{},&*!?|>%@`abc1.\\\r";

for (let chunk = 0; chunk < 2; chunk++) {
  const seed = (SEED ^ 0x5eed) + chunk;
  test(`parseYaml() never throws on ${MUTANTS / 2} mutated documents and never accepts what yaml rejects (seed ${seed})`, () => {
    mutate(seed, MUTANTS / 2);
  });
}

function mutate(SEED: number, MUTANTS: number): void {
  const rnd = mulberry32(SEED);
  const counts = { equal: 0, bothError: 0, onlyOursError: 0 };
  const silent: string[] = [];
  for (let i = 0; i < MUTANTS; i++) {
    let text = generateDocument(rnd);
    const edits = 1 + Math.floor(rnd() * 3);
    for (let j = 0; j < edits; j++) {
      const p = Math.floor(rnd() * (text.length + 1));
      if (rnd() < 0.5 && text.length > 0) text = text.slice(0, p) + text.slice(p + 1);
      else text = text.slice(0, p) + ALPHABET[Math.floor(rnd() * ALPHABET.length)] + text.slice(p);
    }
    const ours = parseYaml(text);
    assert.ok(Array.isArray(ours.errors));
    for (const e of ours.errors) {
      assert.ok(e.line >= 1 && e.column >= 1, `position out of range: ${JSON.stringify(e)}`);
      assert.ok(e.line <= text.split("\n").length, `line out of range: ${JSON.stringify(e)}`);
    }
    const doc = parseDocument(text, { logLevel: "silent" });
    let theirs: unknown;
    let theirsFailed = doc.errors.length > 0;
    if (!theirsFailed) {
      try {
        theirs = doc.toJS();
      } catch {
        theirsFailed = true;
      }
    }
    if (ours.errors.length > 0) {
      assert.equal(ours.value, undefined);
      if (theirsFailed) counts.bothError++;
      else counts.onlyOursError++;
    } else if (theirsFailed) {
      silent.push(`yaml rejects, we accept: ${JSON.stringify(text)}`);
    } else if (!isDeepStrictEqual(ours.value, theirs)) {
      silent.push(`values differ: ${JSON.stringify(text)}`);
    } else counts.equal++;
  }
  assert.deepEqual(silent, [], `seed ${SEED}: ${silent.length} silent disagreements`);
  // The pass must exercise both outcomes to mean anything.
  assert.ok(counts.equal > MUTANTS / 10, JSON.stringify(counts));
  assert.ok(counts.bothError > MUTANTS / 10, JSON.stringify(counts));
}
