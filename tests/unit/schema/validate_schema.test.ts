import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { type JsonSchema, validateSchema } from "../../../lib/schema/validate_schema.ts";
import { isDateTime } from "../../../lib/schema/_check.ts";
import { mulberry32 as rng } from "../_rng.ts";
import { pick, POOL, randomSchema, randomValue } from "../_schema_gen.ts";

type Obj = Record<string, unknown>;

const ROOT = join(import.meta.dirname!, "..", "..", "..");
const FIXTURES = join(ROOT, "tests", "fixtures", "schemas");

function newAjv(options: Obj = {}) {
  const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (o: Obj) => {
    compile(s: unknown): (v: unknown) => boolean;
    addFormat(name: string, f: (s: string) => boolean): unknown;
  };
  const ajv = new Ctor({ strict: false, allErrors: false, validateSchema: false, ...options });
  // The same light predicate on both sides: the format itself is tested below.
  ajv.addFormat("date-time", isDateTime);
  return ajv;
}

function issues(schema: JsonSchema, value: unknown): [string, string][] {
  return validateSchema(schema, value).map((i) => [i.path, i.keyword]);
}

describe("validateSchema() keywords", () => {
  test("validateSchema() accepts a value of one of several types and names both when it fails", () => {
    const schema = { type: ["string", "null"] };
    assert.deepEqual(issues(schema, null), []);
    assert.deepEqual(issues(schema, "x"), []);
    const [issue] = validateSchema(schema, 3);
    assert.equal(issue.keyword, "type");
    assert.match(issue.message, /string or null/);
  });

  test("validateSchema() tells integers from other numbers", () => {
    assert.deepEqual(issues({ type: "integer" }, 3), []);
    assert.deepEqual(issues({ type: "integer" }, 3.5), [["", "type"]]);
    assert.deepEqual(issues({ type: "number" }, 3.5), []);
    assert.deepEqual(issues({ type: "integer" }, "3"), [["", "type"]]);
  });

  test("validateSchema() reports nested problems with JSON pointers, escaping ~ and /", () => {
    const schema = {
      type: "object",
      properties: { budget: { type: "object", properties: { maxChars: { type: "integer", maximum: 10000 } } } },
      additionalProperties: false,
    };
    assert.deepEqual(issues(schema, { budget: { maxChars: 10001 }, "a/b~c": 1 }), [
      ["/budget/maxChars", "maximum"],
      ["/a~1b~0c", "additionalProperties"],
    ]);
  });

  test("validateSchema() compares enum and const members by JSON value", () => {
    assert.deepEqual(issues({ enum: ["auto", true, false] }, true), []);
    assert.deepEqual(issues({ enum: ["auto", true, false] }, "true"), [["", "enum"]]);
    assert.deepEqual(issues({ const: { a: [1, 2] } }, { a: [1, 2] }), []);
    assert.deepEqual(issues({ const: { a: [1, 2] } }, { a: [2, 1] }), [["", "const"]]);
    assert.deepEqual(issues({ enum: [null] }, null), []);
  });

  test("validateSchema() checks required keys as own properties, never the prototype", () => {
    const schema = {
      type: "object",
      required: ["toString", "constructor"],
      properties: {},
      additionalProperties: false,
    };
    assert.deepEqual(issues(schema, {}), [["", "required"], ["", "required"]]);
    const hostile = JSON.parse('{"__proto__": {"x": 1}}');
    assert.deepEqual(issues(schema, hostile), [["", "required"], ["", "required"], [
      "/__proto__",
      "additionalProperties",
    ]]);
  });

  test("validateSchema() counts string length in code points", () => {
    assert.deepEqual(issues({ maxLength: 1 }, "😀"), []);
    assert.deepEqual(issues({ minLength: 2 }, "😀"), [["", "minLength"]]);
    assert.deepEqual(issues({ minLength: 1 }, 5), [], "string keywords ignore other types");
  });

  test("validateSchema() applies patterns as Unicode regular expressions, unanchored", () => {
    assert.deepEqual(issues({ pattern: "^\\d{2}-[a-z0-9-]+$" }, "24-x"), []);
    assert.deepEqual(issues({ pattern: "^\\d{2}-[a-z0-9-]+$" }, "../etc"), [["", "pattern"]]);
    assert.deepEqual(issues({ pattern: "b" }, "abc"), []);
    assert.deepEqual(issues({ pattern: "^.$" }, "😀"), []);
  });

  test("validateSchema() reports an invalid pattern instead of throwing", () => {
    assert.deepEqual(issues({ pattern: "(" }, "x"), [["", "pattern"]]);
  });

  test("validateSchema() checks number bounds, exclusive ones included", () => {
    const schema = { minimum: 0, maximum: 1, exclusiveMinimum: -1, exclusiveMaximum: 1 };
    assert.deepEqual(issues(schema, 0), []);
    assert.deepEqual(issues(schema, 1), [["", "exclusiveMaximum"]]);
    assert.deepEqual(issues(schema, -0.5), [["", "minimum"]]);
    assert.deepEqual(issues(schema, 2), [["", "maximum"], ["", "exclusiveMaximum"]]);
  });

  test("validateSchema() checks arrays: prefixItems, items after them, sizes and uniqueness", () => {
    const schema = {
      prefixItems: [{ type: "string" }],
      items: { type: "integer" },
      minItems: 2,
      maxItems: 3,
      uniqueItems: true,
    };
    assert.deepEqual(issues(schema, ["a", 1, 2]), []);
    assert.deepEqual(issues(schema, [1]), [["", "minItems"], ["/0", "type"]]);
    assert.deepEqual(issues(schema, ["a", "b", 1, 1]), [["", "maxItems"], ["/1", "type"], ["", "uniqueItems"]]);
    assert.deepEqual(issues({ uniqueItems: true }, [{ a: 1 }, { a: 1 }]), [["", "uniqueItems"]]);
  });

  test("validateSchema() applies additionalProperties as a schema to keys no other keyword claims", () => {
    const schema = {
      properties: { a: { type: "string" } },
      patternProperties: { "^x-": { type: "integer" } },
      additionalProperties: { type: "boolean" },
    };
    assert.deepEqual(issues(schema, { a: "s", "x-n": 1, other: true }), []);
    assert.deepEqual(issues(schema, { a: 1, "x-n": "1", other: 1 }), [["/a", "type"], ["/x-n", "type"], [
      "/other",
      "type",
    ]]);
  });

  test("validateSchema() needs exactly one oneOf branch, at least one anyOf branch, and no not match", () => {
    const oneOf = { oneOf: [{ type: "integer" }, { type: "number" }] };
    assert.deepEqual(issues(oneOf, 1.5), []);
    assert.deepEqual(issues(oneOf, 1), [["", "oneOf"]], "an integer is also a number");
    assert.deepEqual(issues(oneOf, "1"), [["", "oneOf"]]);
    const anyOf = { anyOf: [{ required: ["resume_schema_version"] }, { required: ["resume_version"] }] };
    assert.deepEqual(issues(anyOf, { resume_version: "1" }), []);
    assert.deepEqual(issues(anyOf, {}), [["", "anyOf"]]);
    assert.deepEqual(issues({ not: { type: "null" } }, null), [["", "not"]]);
    assert.deepEqual(issues({ allOf: [{ minimum: 1 }, { maximum: 0 }] }, 5), [["", "maximum"]]);
  });

  test("validateSchema() applies then or else depending on if", () => {
    const schema = { if: { type: "string" }, then: { minLength: 2 }, else: { type: "integer" } };
    assert.deepEqual(issues(schema, "ab"), []);
    assert.deepEqual(issues(schema, "a"), [["", "minLength"]]);
    assert.deepEqual(issues(schema, 1.5), [["", "type"]]);
  });

  test("validateSchema() follows $ref into $defs, to the root and by absolute $id", () => {
    const schema = {
      $id: "https://rehydrate.dev/schemas/t.json",
      type: "object",
      properties: {
        a: { $ref: "#/$defs/positive" },
        b: { $ref: "https://rehydrate.dev/schemas/t.json#/$defs/positive" },
        child: { $ref: "#" },
      },
      $defs: { positive: { type: "integer", minimum: 1 } },
    };
    assert.deepEqual(issues(schema, { a: 1, b: 2, child: { a: 3 } }), []);
    assert.deepEqual(issues(schema, { a: 0, b: "x", child: { a: 0 } }), [["/a", "minimum"], ["/b", "type"], [
      "/child/a",
      "minimum",
    ]]);
  });

  test("validateSchema() reports a reference it cannot resolve instead of throwing", () => {
    assert.deepEqual(issues({ $ref: "#/$defs/missing" }, 1), [["", "$ref"]]);
    assert.deepEqual(issues({ $ref: "other.json#/a" }, 1), [["", "$ref"]]);
  });

  test("validateSchema() stops a reference cycle instead of overflowing the stack", () => {
    const found = validateSchema({ $ref: "#" }, 1);
    assert.equal(found.length, 1);
    assert.equal(found[0].keyword, "$ref");
  });

  test("validateSchema() treats true and false as schemas", () => {
    assert.deepEqual(issues(true, { anything: 1 }), []);
    assert.deepEqual(issues(false, 1), [["", "false"]]);
    assert.deepEqual(issues({ properties: { a: false } }, { a: 1 }), [["/a", "false"]]);
  });

  test("validateSchema() ignores keywords it does not know", () => {
    assert.deepEqual(issues({ multipleOf: 7, contains: { const: 1 }, "x-custom": 1 }, 3), []);
  });

  test("validateSchema() stops at maxIssues", () => {
    const schema = { items: { type: "string" } };
    assert.equal(validateSchema(schema, [1, 2, 3, 4]).length, 4);
    assert.equal(validateSchema(schema, [1, 2, 3, 4], { maxIssues: 2 }).length, 2);
  });

  test("validateSchema() gives sentence-case messages without a trailing period", () => {
    const found = validateSchema(
      { type: "object", required: ["a"], properties: { b: { maximum: 1 } }, additionalProperties: false },
      { b: 2, c: 1 },
    );
    assert.equal(found.length, 3);
    for (const { message } of found) assert.match(message, /^[A-Z][^]*[^.]$/);
  });
});

describe("validateSchema() date-time format", () => {
  const good = [
    "2026-01-03T14:00:00Z",
    "2026-01-03t14:00:00z",
    "2026-01-03T14:00:00.123456+01:00",
    "2026-01-03 14:00:00-05:30",
    "2016-12-31T23:59:60Z",
  ];
  const bad = [
    "2026-01-03T14:00:00",
    "2026-01-03",
    "2026-13-03T14:00:00Z",
    "2026-01-32T14:00:00Z",
    "2026-01-03T24:00:00Z",
    "2026-01-03T14:00Z",
    "2026-01-03T14:00:00+0100",
    " 2026-01-03T14:00:00Z",
  ];
  test("validateSchema() accepts RFC 3339 date-times with an offset", () => {
    for (const s of good) assert.deepEqual(issues({ format: "date-time" }, s), [], s);
  });
  test("validateSchema() rejects date-times without an offset or with fields out of range", () => {
    for (const s of bad) assert.deepEqual(issues({ format: "date-time" }, s), [["", "format"]], s);
  });
  test("validateSchema() ignores formats it does not know and non-string values", () => {
    assert.deepEqual(issues({ format: "email" }, "nope"), []);
    assert.deepEqual(issues({ format: "date-time" }, 5), []);
  });
});

// ---- differential tests against ajv ----

function nodes(value: unknown, out: unknown[] = []): unknown[] {
  if (typeof value === "object" && value !== null) {
    out.push(value);
    for (const child of Object.values(value)) nodes(child, out);
  }
  return out;
}

/** Applies one random change somewhere in `doc` (in place). */
function mutate(doc: unknown, r: () => number): void {
  const containers = nodes(doc);
  if (containers.length === 0) return;
  const node = pick(r, containers) as Obj | unknown[];
  const keys = Object.keys(node);
  const kind = Math.floor(r() * 6);
  if (Array.isArray(node)) {
    if (kind === 0) node.length = 0;
    else if (kind === 1 && node.length > 0) node.push(structuredClone(node[0]));
    else if (kind === 2) { for (let i = 0; i < 25; i++) node.push(structuredClone(node[0] ?? "x")); }
    else if (keys.length > 0) node[Math.floor(r() * node.length)] = tweak(node[Math.floor(r() * node.length)], r);
    else node.push(structuredClone(pick(r, POOL)));
    return;
  }
  if (kind === 0 && keys.length > 0) delete node[pick(r, keys)];
  else if (kind === 1) node[pick(r, ["extra", "project_detection", "type", "budgte"])] = structuredClone(pick(r, POOL));
  else if (keys.length > 0) {
    const key = pick(r, keys);
    node[key] = tweak(node[key], r);
  }
}

function tweak(value: unknown, r: () => number): unknown {
  const k = r();
  if (k < 0.4) return structuredClone(pick(r, POOL));
  if (typeof value === "number") return pick(r, [value + 1, value - 1, value * 1000, -value, value + 0.5, 0]);
  if (typeof value === "string") return pick(r, [value + "X", "", value.toUpperCase(), value.slice(1), ` ${value}`]);
  if (typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return structuredClone(pick(r, POOL));
}

describe("validateSchema() agrees with ajv", () => {
  const schemaNames = readdirSync(join(ROOT, "schemas")).filter((f) => f.endsWith(".json")).sort();
  for (const file of schemaNames) {
    const name = file.replace(/\.json$/, "");
    test(`validateSchema() gives ajv's verdict on mutated ${name} documents`, () => {
      const schema = JSON.parse(readFileSync(join(ROOT, "schemas", file), "utf8"));
      const ajvValidate = newAjv().compile(schema);
      const dirs = ["valid", "invalid"].map((k) => join(FIXTURES, k, name));
      const seeds = dirs.flatMap((d) =>
        readdirSync(d).filter((f) => f.endsWith(".json") && f !== "expected.json").map((f) =>
          JSON.parse(readFileSync(join(d, f), "utf8"))
        )
      );
      const r = rng(0x5eed + name.length);
      let invalid = 0;
      let valid = 0;
      for (let i = 0; i < 600; i++) {
        const doc = structuredClone(seeds[i % seeds.length]);
        const rounds = i < 100 ? 0 : 1 + Math.floor(r() * 3);
        for (let m = 0; m < rounds; m++) mutate(doc, r);
        const ours = validateSchema(schema, doc).length === 0;
        const theirs = ajvValidate(doc);
        if (ours !== theirs) {
          assert.fail(`${name} #${i}: validateSchema says ${ours}, ajv says ${theirs} for ${JSON.stringify(doc)}`);
        }
        if (ours) valid++;
        else invalid++;
      }
      // The generator must produce both verdicts, or the comparison proves little.
      assert.ok(valid >= 20 && invalid >= 100, `valid ${valid}, invalid ${invalid}`);
    });
  }

  // ajv compiles each random schema to code (a few ms each): allow for a loaded machine.
  test("validateSchema() gives ajv's verdict on random schemas and values", { timeout: 60000 }, () => {
    const r = rng(20260103);
    const ajv = newAjv({ code: { optimize: false } });
    let compared = 0;
    let valid = 0;
    for (let i = 0; i < 100; i++) {
      const defs = { d0: randomSchema(r, 1, false), d1: randomSchema(r, 2, false) };
      const schema = { ...(randomSchema(r, 3, true) as Obj), $defs: defs };
      let check: (v: unknown) => boolean;
      try {
        check = ajv.compile(schema);
      } catch {
        continue; // a schema ajv refuses to compile says nothing about us
      }
      for (let j = 0; j < 80; j++) {
        const value = randomValue(r, 3);
        const ours = validateSchema(schema, value).length === 0;
        let theirs: boolean;
        try {
          theirs = check(value);
        } catch {
          break; // ajv's generated code fails on some odd combinations (ReferenceError)
        }
        if (ours !== theirs) {
          assert.fail(
            `#${i}.${j}: validateSchema says ${ours}, ajv says ${theirs}\nschema ${JSON.stringify(schema)}\nvalue ${
              JSON.stringify(value)
            }`,
          );
        }
        compared++;
        if (ours) valid++;
      }
    }
    assert.ok(compared >= 5000, `compared ${compared}`);
    assert.ok(valid > compared * 0.1 && valid < compared * 0.9, `valid ${valid} of ${compared}`);
  });
});
