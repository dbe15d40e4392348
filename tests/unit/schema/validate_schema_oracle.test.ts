// validateSchema against two oracles on generated documents: ajv for the verdict, and the walk as it
// was before it was rewritten for cold-process speed (tests/unit/_old_schema_check.ts) for the exact
// issues (path, keyword, message, order, and where maxIssues cuts them off).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { type JsonSchema, validateSchema } from "../../../lib/schema/validate_schema.ts";
import { isDateTime } from "../../../lib/schema/_check.ts";
import { SCHEMAS } from "../../../lib/cli/_schemas.ts";
import { oldValidateSchema } from "../_old_schema_check.ts";
import { mulberry32 as rng } from "../_rng.ts";
import { pick, POOL, randomSchema, randomValue } from "../_schema_gen.ts";

type Obj = Record<string, unknown>;

const ROOT = join(import.meta.dirname!, "..", "..", "..");
const FIXTURES = join(ROOT, "tests", "fixtures", "schemas");
const MAX_ISSUES = [1, 3, 100];

// Values of the wrong type for most keys, and strings whose length in code points differs from
// their length in UTF-16 units.
const WRONG: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  2.5,
  1e21,
  -0,
  "",
  "x",
  "😀",
  "a😀",
  "😀😀",
  "😀😀😀",
  "\ud83d",
  "ééé",
  "2026-01-03T14:00:00+01:00",
  "2026-02-30T25:00:00Z",
  "2026-01-03T14:00:00",
  "99-x",
  "1.0",
  [],
  [null],
  ["a", "a"],
  [1, 2, 3],
  {},
  { extra: 1 },
  { tool: "Read" },
];
// Unknown keys, two of them needing JSON-pointer escapes in the reported path.
const UNKNOWN_KEYS = ["extra", "project_detection", "type", "budgte", "a/b", "c~d", "é"];

function newAjv() {
  const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (o: Obj) => {
    compile(s: unknown): (v: unknown) => boolean;
    addFormat(name: string, f: (s: string) => boolean): unknown;
  };
  const ajv = new Ctor({ strict: false, allErrors: false, validateSchema: false });
  ajv.addFormat("date-time", isDateTime);
  return ajv;
}

/** Asserts validateSchema reports exactly what the previous walk reported, at every maxIssues. */
function assertSameIssues(schema: JsonSchema, value: unknown, label: string): number {
  let count = 0;
  for (const maxIssues of MAX_ISSUES) {
    const ours = validateSchema(schema, value, { maxIssues });
    const theirs = oldValidateSchema(schema, value, { maxIssues });
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      assert.deepEqual(ours, theirs, `${label} (maxIssues ${maxIssues}): ${JSON.stringify(value)}`);
    }
    count = ours.length;
  }
  return count;
}

function containers(value: unknown, out: (Obj | unknown[])[] = []): (Obj | unknown[])[] {
  if (typeof value === "object" && value !== null) {
    out.push(value as Obj | unknown[]);
    for (const child of Object.values(value)) containers(child, out);
  }
  return out;
}

function leaves(value: unknown, out: unknown[] = []): unknown[] {
  if (typeof value === "object" && value !== null) { for (const child of Object.values(value)) leaves(child, out); }
  else out.push(value);
  return out;
}

/** Applies one random change somewhere in `doc` (in place). */
function mutate(doc: unknown, r: () => number): void {
  const all = containers(doc);
  if (all.length === 0) return;
  const node = pick(r, all);
  const keys = Object.keys(node);
  const op = Math.floor(r() * 7);
  if (Array.isArray(node)) {
    if (op === 0) node.length = 0;
    else if (op === 1 && node.length > 0) node.splice(Math.floor(r() * node.length), 1);
    else if (op === 2 && node.length > 0) node.push(structuredClone(node[0]));
    else if (op === 3) { for (let i = 0; i < 25; i++) node.push(structuredClone(node[0] ?? "x")); }
    else if (node.length > 0) {
      node[Math.floor(r() * node.length)] = replacement(doc, node[Math.floor(r() * node.length)], r);
    } else node.push(structuredClone(pick(r, WRONG)));
    return;
  }
  if (op === 0 && keys.length > 0) delete node[pick(r, keys)]; // often a required key
  else if (op === 1) node[pick(r, UNKNOWN_KEYS)] = structuredClone(pick(r, WRONG));
  else if (keys.length > 0) {
    const key = pick(r, keys);
    node[key] = replacement(doc, node[key], r);
  }
}

function replacement(doc: unknown, value: unknown, r: () => number): unknown {
  const k = r();
  if (k < 0.35) return structuredClone(pick(r, WRONG)); // usually the wrong type
  if (k < 0.5) return structuredClone(pick(r, POOL));
  if (k < 0.6) {
    const found = leaves(doc); // a value of the right shape from elsewhere in the document
    return found.length > 0 ? pick(r, found) : null;
  }
  if (typeof value === "number") return pick(r, [value + 1, value - 1, value * 1000, -value, value + 0.5, 0, -1]);
  if (typeof value === "string") {
    return pick(r, [
      value + "X",
      "",
      value.toUpperCase(),
      value.slice(1),
      ` ${value}`,
      value + "😀",
      value.slice(0, 10),
    ]);
  }
  if (typeof value === "boolean") return !value;
  if (value === null) return "null";
  return structuredClone(pick(r, WRONG));
}

/** A precompact state of the size PreCompact writes: 8 working-set files, 10 tool calls. */
function bigState(r: () => number): Obj {
  const paths = Array.from({ length: 8 }, (_, i) => i % 3 === 2 ? `/abs/notes/${i}.md` : `02-projects/24-x/f${i}.md`);
  return {
    schema_version: 1,
    active_project_id: "24-project-skills",
    confidence: pick(r, ["high", "medium", "low", "none"]),
    detection_method: "transcript",
    timestamp: "2026-01-03T14:25:00.123Z",
    session_id: "35dd7dd6-f123-4616-a3f3-fc3591e3ecbf",
    trigger: "auto",
    compaction_id: "977e0c22-4ab9-44d6-97b2-4396386733f3",
    transcript_bytes_scanned: 524288,
    switched_to_skill: null,
    working_set: paths.map((path, i) => ({ path, score: 10 - i, reasons: i % 2 ? ["read"] : ["edited", "steps"] })),
    last_tool_calls: Array.from(
      { length: 10 },
      (_, i) =>
        i % 4 === 3
          ? { tool: "Bash", timestamp: `2026-01-03T14:1${i}:00Z` }
          : { tool: "Read", file: paths[i % 8], timestamp: `2026-01-03T14:1${i}:00Z` },
    ),
    delivered: r() < 0.5 ? null : { at: "2026-01-03T14:26:00Z", compaction_id: "977e0c22" },
  };
}

/** Every subschema of `schema` (`properties`, `items`, `$defs`, the combinators, …), `schema` included. */
function subschemas(schema: unknown, out: JsonSchema[] = []): JsonSchema[] {
  if (typeof schema === "boolean") out.push(schema);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return out;
  out.push(schema as JsonSchema);
  const s = schema as Obj;
  for (const key of ["properties", "patternProperties", "$defs"]) {
    if (typeof s[key] === "object" && s[key] !== null) {
      for (const sub of Object.values(s[key] as Obj)) subschemas(sub, out);
    }
  }
  for (const key of ["items", "additionalProperties", "not", "if", "then", "else"]) subschemas(s[key], out);
  for (const key of ["prefixItems", "allOf", "anyOf", "oneOf"]) {
    if (Array.isArray(s[key])) { for (const sub of s[key] as unknown[]) subschemas(sub, out); }
  }
  return out;
}

describe("validateSchema() against ajv and the previous walk", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    test(`validateSchema() gives ajv's verdict and the previous issues on mutated ${name} documents`, () => {
      const ajvValidate = newAjv().compile(schema);
      const dir = `${name}.v1`;
      const seeds = ["valid", "invalid"].flatMap((kind) =>
        readdirSync(join(FIXTURES, kind, dir)).filter((f) => f.endsWith(".json") && f !== "expected.json").sort()
          .map((f) => JSON.parse(readFileSync(join(FIXTURES, kind, dir, f), "utf8")))
      );
      const r = rng(0x0c1d + name.length * 7919);
      let valid = 0;
      let invalid = 0;
      let severalIssues = 0;
      for (let i = 0; i < 1500; i++) {
        const doc = name === "precompact_state" && i % 3 === 0 ? bigState(r) : structuredClone(seeds[i % seeds.length]);
        const rounds = i < 60 ? 0 : 1 + Math.floor(r() * 4);
        for (let m = 0; m < rounds; m++) mutate(doc, r);
        const count = assertSameIssues(schema, doc, `${name} #${i}`);
        const theirs = ajvValidate(doc);
        if ((count === 0) !== theirs) {
          assert.fail(
            `${name} #${i}: validateSchema says ${count === 0}, ajv says ${theirs} for ${JSON.stringify(doc)}`,
          );
        }
        if (count === 0) valid++;
        else invalid++;
        if (count > 1) severalIssues++;
      }
      // Both verdicts, and documents with several issues (where order and maxIssues matter).
      assert.ok(
        valid >= 60 && invalid >= 500 && severalIssues >= 100,
        `valid ${valid}, invalid ${invalid}, several ${severalIssues}`,
      );
    });

    test(`validateSchema() reports the previous issues for values checked against each subschema of ${name}`, () => {
      // As loadConfig validates one leaf of the config schema: a `$ref` then points nowhere.
      const r = rng(0x5b5 + name.length);
      for (const [i, sub] of subschemas(schema).entries()) {
        for (const value of WRONG) assertSameIssues(sub, value, `${name} subschema ${i}`);
        for (let j = 0; j < 20; j++) assertSameIssues(sub, randomValue(r, 2), `${name} subschema ${i}`);
      }
    });
  }

  test("validateSchema() reports the previous issues on random schemas and values", () => {
    const r = rng(0xdecaf);
    let invalid = 0;
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const defs = { d0: randomSchema(r, 1, false), d1: randomSchema(r, 2, false) };
      const schema = { ...(randomSchema(r, 3, true) as Obj), $defs: defs };
      for (let j = 0; j < 40; j++) {
        const value = j < 8 ? pick(r, WRONG) : randomValue(r, 3);
        if (assertSameIssues(schema, value, `schema #${i}: ${JSON.stringify(schema)}`) > 0) invalid++;
        compared++;
      }
    }
    assert.ok(invalid > compared * 0.1 && invalid < compared * 0.9, `invalid ${invalid} of ${compared}`);
  });

  test("validateSchema() resolves a subschema's $ref against the root of each call", () => {
    const shared = { $ref: "#/$defs/x" };
    const asString = { $defs: { x: { type: "string" } }, properties: { a: shared } };
    const asNumber = { $defs: { x: { type: "number" } }, properties: { a: shared } };
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(validateSchema(asString, { a: "s" }), []);
      assert.deepEqual(validateSchema(asNumber, { a: "s" }).map((i) => [i.path, i.keyword]), [["/a", "type"]]);
      assert.deepEqual(validateSchema(shared, "s").map((i) => i.keyword), ["$ref"]);
      for (const [s, v] of [[asString, { a: 1 }], [asNumber, { a: 1 }], [shared, 1]] as const) {
        assertSameIssues(s as JsonSchema, v, "shared $ref");
      }
    }
  });
});
