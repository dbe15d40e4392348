import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { parse as yamlParse } from "yaml";
import { parseFrontmatter } from "../../../lib/yaml/parse_frontmatter.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "frontmatter");
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const cases = readdirSync(FIXTURES).filter((f) => f.endsWith(".md")).sort();

describe("parseFrontmatter() golden fixtures", () => {
  test("the fixture directory holds at least 10 cases", () => {
    assert.ok(cases.length >= 10, `only ${cases.length} cases`);
  });
  for (const file of cases) {
    const name = file.slice(0, -3);
    test(`parseFrontmatter() matches the golden result for ${name}`, () => {
      const text = readFileSync(join(FIXTURES, file), "utf8");
      const { value, errors } = parseFrontmatter(text);
      const actual = name.startsWith("err_")
        ? { errors: errors.map(({ code, line, column }) => ({ code, line, column })) }
        : value;
      const goldenPath = join(FIXTURES, `${name}.json`);
      if (UPDATE) writeFileSync(goldenPath, JSON.stringify(actual, null, 2) + "\n");
      assert.deepStrictEqual(actual, JSON.parse(readFileSync(goldenPath, "utf8")));
      if (name.startsWith("err_")) assert.equal(value, null);
      else assert.deepEqual(errors, []);
    });
  }
});

describe("parseFrontmatter()", () => {
  test("parseFrontmatter() gives the same data as the yaml package on the frontmatter block", () => {
    for (const file of ["resume_context.md", "resume_context_legacy.md", "skill_md.md"]) {
      const text = readFileSync(join(FIXTURES, file), "utf8");
      const block = text.split("\n---\n")[0].slice(4);
      assert.deepStrictEqual(parseFrontmatter(text).value?.data, yamlParse(block), file);
    }
  });

  test("parseFrontmatter() keeps the body byte-for-byte and reports the line it starts on", () => {
    const text = "---\na: 1\nb: 2\n---\n\nBody\n---\nmore\n";
    const { value } = parseFrontmatter(text);
    assert.deepEqual(value, { data: { a: 1, b: 2 }, body: "\nBody\n---\nmore\n", bodyLine: 5 });
    assert.equal(text.split("\n").slice(value!.bodyLine - 1).join("\n"), value!.body);
  });

  test("parseFrontmatter() returns null data and the whole text when there is no opening fence", () => {
    for (const text of ["", "# Title\n", " ---\na: 1\n---\n", "----\na: 1\n----\n", "---"]) {
      assert.deepEqual(
        parseFrontmatter(text),
        { value: { data: null, body: text, bodyLine: 1 }, errors: [] },
        JSON.stringify(text),
      );
    }
  });

  test("parseFrontmatter() reports YAML errors with lines of the whole file", () => {
    const { value, errors } = parseFrontmatter("---\na: 1\n\nb: *alias\n---\nbody\n");
    assert.equal(value, null);
    assert.deepEqual(errors.map(({ code, line, column }) => ({ code, line, column })), [
      { code: "UNSUPPORTED_ALIAS", line: 4, column: 4 },
    ]);
  });

  test("parseFrontmatter() reports UNTERMINATED_FRONTMATTER at the opening fence", () => {
    const { errors } = parseFrontmatter("---\na: 1\n");
    assert.deepEqual(errors.map(({ code, line, column }) => ({ code, line, column })), [
      { code: "UNTERMINATED_FRONTMATTER", line: 1, column: 1 },
    ]);
  });

  test("parseFrontmatter() reports FRONTMATTER_NOT_MAPPING for a sequence or a scalar", () => {
    for (const text of ["---\n- a\n---\n", "---\n42\n---\n", '---\n"s"\n---\n']) {
      const { errors } = parseFrontmatter(text);
      assert.deepEqual(errors.map(({ code, line, column }) => ({ code, line, column })), [
        { code: "FRONTMATTER_NOT_MAPPING", line: 2, column: 1 },
      ], JSON.stringify(text));
    }
  });

  test("parseFrontmatter() passes the YAML limits through", () => {
    const { errors } = parseFrontmatter("---\na:\n  b: 1\n---\n", { maxDepth: 1 });
    assert.equal(errors[0].code, "MAX_DEPTH");
    assert.equal(errors[0].line, 3);
  });
});
