import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { parse as yamlParse } from "yaml";
import { parseYaml, type YamlErrorCode } from "../../../lib/yaml/parse_yaml.ts";
import { loadYaml, YamlSyntaxError } from "../../../lib/yaml/yaml_syntax_error.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "yaml");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** JSON cannot hold NaN, ±Infinity or -0: encode them as {"$number": "..."}. */
function encode(_k: string, v: unknown): unknown {
  if (typeof v === "number" && (!Number.isFinite(v) || Object.is(v, -0))) {
    return { $number: Object.is(v, -0) ? "-0" : String(v) };
  }
  return v;
}
function decode(_k: string, v: unknown): unknown {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === "$number") return Number((v as { $number: string }).$number);
  }
  return v;
}

const cases = readdirSync(FIXTURES).filter((f) => f.endsWith(".yaml")).sort();

describe("parseYaml() golden fixtures", () => {
  test("the fixture directory holds at least 30 cases", () => {
    assert.ok(cases.length >= 30, `only ${cases.length} cases`);
  });
  for (const file of cases) {
    const name = file.slice(0, -5);
    const isError = name.startsWith("err_");
    test(`parseYaml() matches the golden result for ${name}`, () => {
      const text = readFileSync(join(FIXTURES, file), "utf8");
      const { value, errors } = parseYaml(text);
      const actual = isError ? { errors: errors.map(({ code, line, column }) => ({ code, line, column })) } : value;
      const goldenPath = join(FIXTURES, `${name}.json`);
      if (UPDATE) writeFileSync(goldenPath, JSON.stringify(actual, encode, 2) + "\n");
      const expected = JSON.parse(readFileSync(goldenPath, "utf8"), decode);
      if (isError) {
        assert.equal(value, undefined);
        assert.ok(errors.length > 0, "an error case must report an error");
      } else {
        assert.deepEqual(errors, []);
      }
      assert.deepStrictEqual(actual, expected);
    });
    if (!isError) {
      test(`parseYaml() agrees with the yaml package on ${name}`, () => {
        const text = readFileSync(join(FIXTURES, file), "utf8");
        assert.deepStrictEqual(parseYaml(text).value, yamlParse(text));
      });
    }
  }
});

describe("parseYaml() error codes", () => {
  const inline: [string, string, YamlErrorCode, number, number][] = [
    ["an anchor on a sequence item", "- &a x\n", "UNSUPPORTED_ANCHOR", 1, 3],
    ["an alias as a key", "a: 1\n*a : 2\n", "UNSUPPORTED_ALIAS", 2, 1],
    ["a tag in a flow sequence", "[!!int 1]\n", "UNSUPPORTED_TAG", 1, 2],
    ["a complex key in a flow mapping", "{? a: 1}\n", "UNSUPPORTED_COMPLEX_KEY", 1, 2],
    ["an unclosed flow mapping at the end", "{a: 1", "UNTERMINATED_FLOW", 1, 1],
    ["a bad \\u escape", 'a: "\\u12G4"\n', "BAD_ESCAPE", 1, 5],
    ["a code point beyond Unicode", 'a: "\\U00110000"\n', "BAD_ESCAPE", 1, 5],
    ["a second document after ...", "a\n...\n---\nb\n", "MULTI_DOCUMENT", 3, 1],
    ["a duplicate key in a flow mapping", "{a: 1, a: 2}\n", "DUPLICATE_KEY", 1, 8],
    ["a tab before an inline nested mapping", "-\ta: 1\n", "TAB_INDENT", 1, 2],
    ["a sequence item among mapping entries", "a: 1\n- b\n", "UNEXPECTED_TOKEN", 2, 1],
    ["content after a quoted scalar", 'a: "x" y\n', "UNEXPECTED_TOKEN", 1, 8],
    ["a reserved indicator", "a: @x\n", "UNEXPECTED_TOKEN", 1, 4],
    ["a block scalar less indented than its first line", "a: |\n    x\n  y\n", "BAD_INDENT", 3, 3],
    ["a quoted continuation line at the parent indentation", 'a: "x\ny"\n', "UNTERMINATED_STRING", 1, 4],
    ["a lone CR", "a: 1\r", "BAD_LINE_BREAK", 1, 5],
  ];
  for (const [what, text, code, line, column] of inline) {
    test(`parseYaml() reports ${code} at ${line}:${column} for ${what}`, () => {
      const { value, errors } = parseYaml(text);
      assert.equal(value, undefined);
      assert.deepEqual(errors.map(({ code, line, column }) => ({ code, line, column })), [{ code, line, column }]);
      assert.equal(typeof errors[0].message, "string");
      assert.ok(!errors[0].message.endsWith("."));
    });
  }

  test("parseYaml() reports MAX_SIZE when the input exceeds maxSize bytes", () => {
    assert.deepEqual(parseYaml("a: ééé\n", { maxSize: 8 }).errors.map((e) => e.code), ["MAX_SIZE"]);
    assert.deepEqual(parseYaml("a: ééé\n", { maxSize: 10 }).errors, []);
    const big = "a: " + "x".repeat(1024 * 1024) + "\n";
    const r = parseYaml(big);
    assert.deepEqual(r.errors.map(({ code, line, column }) => ({ code, line, column })), [
      { code: "MAX_SIZE", line: 1, column: 1 },
    ]);
  });

  test("parseYaml() reports MAX_DEPTH at the collection that crosses maxDepth", () => {
    const r = parseYaml("a:\n  b:\n    c: 1\n", { maxDepth: 2 });
    assert.deepEqual(r.errors.map(({ code, line, column }) => ({ code, line, column })), [
      { code: "MAX_DEPTH", line: 3, column: 5 },
    ]);
    assert.deepEqual(parseYaml("a:\n  b:\n    c: 1\n", { maxDepth: 3 }).value, { a: { b: { c: 1 } } });
  });

  test("every error code of parseYaml() is reached by a fixture or a test above", () => {
    const all: YamlErrorCode[] = [
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
    ];
    const seen = new Set<string>(inline.map((c) => c[2]));
    seen.add("MAX_SIZE");
    for (const file of cases.filter((f) => f.startsWith("err_"))) {
      const golden = JSON.parse(readFileSync(join(FIXTURES, file.replace(/\.yaml$/, ".json")), "utf8"));
      for (const e of golden.errors) seen.add(e.code);
    }
    assert.deepEqual(all.filter((c) => !seen.has(c)), []);
  });
});

describe("parseYaml() on hostile input", () => {
  test("parseYaml() keeps __proto__ as an own property and never touches the prototype", () => {
    const { value } = parseYaml("__proto__:\n  polluted: true\nb: {__proto__: 1}\n");
    const v = value as Record<string, unknown>;
    assert.ok(Object.hasOwn(v, "__proto__"));
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepStrictEqual(value, yamlParse("__proto__:\n  polluted: true\nb: {__proto__: 1}\n"));
  });

  test("parseYaml() returns MAX_DEPTH instead of overflowing the stack on 100,000 open brackets", () => {
    const r = parseYaml("[".repeat(100_000));
    assert.equal(r.errors[0].code, "MAX_DEPTH");
    assert.equal(r.errors[0].column, 65);
  });

  test("parseYaml() returns MAX_DEPTH instead of throwing when maxDepth exceeds the call stack", () => {
    const r = parseYaml("[".repeat(200_000) + "]".repeat(200_000), { maxDepth: 1e9, maxSize: 1e9 });
    assert.equal(r.errors[0].code, "MAX_DEPTH");
  });

  test("parseYaml() reports an unterminated quote on a 500 KB line with its opening position", () => {
    const r = parseYaml('k: v\nlong: "' + "y".repeat(500_000));
    assert.deepEqual(r.errors.map(({ code, line, column }) => ({ code, line, column })), [
      { code: "UNTERMINATED_STRING", line: 2, column: 7 },
    ]);
  });

  test("parseYaml() reads a 900 KB plain scalar in one piece", () => {
    const r = parseYaml("k: " + "z".repeat(900_000) + "\n");
    assert.equal((r.value as { k: string }).k.length, 900_000);
  });

  test("parseYaml() counts error columns after removing the BOM", () => {
    assert.deepEqual(parseYaml("\ufeffa: &x 1\n").errors[0].column, 4);
  });
});

describe("loadYaml()", () => {
  test("loadYaml() returns the value of a valid document", () => {
    assert.deepEqual(loadYaml("a: [1, 2]\n"), { a: [1, 2] });
  });
  test("loadYaml() throws a YamlSyntaxError carrying code, line and column", () => {
    assert.throws(() => loadYaml("a: 1\nb: *ref\n"), (e: unknown) => {
      assert.ok(e instanceof YamlSyntaxError);
      assert.ok(e instanceof SyntaxError);
      assert.equal(e.code, "UNSUPPORTED_ALIAS");
      assert.equal(e.line, 2);
      assert.equal(e.column, 4);
      assert.equal(e.name, "YamlSyntaxError");
      return true;
    });
  });
  test("loadYaml() passes limits through to parseYaml()", () => {
    assert.throws(
      () => loadYaml("a:\n  b: 1\n", { maxDepth: 1 }),
      (e: unknown) => (e as YamlSyntaxError).code === "MAX_DEPTH",
    );
  });
});
