// schemas/session_snapshot.v1.json held to the rules tests/unit/schemas.test.ts applies to every
// schema (draft 2020-12, documented properties, supported keywords, ajv strict), with its valid
// and invalid documents under tests/fixtures/schemas/, with the other schemas' documents.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import { isDateTime } from "../../../lib/schema/_check.ts";
import { sessionSnapshotSchema } from "../../../lib/session/session_snapshot_schema.ts";
import { FIXTURES } from "./_fixtures.ts";

type Obj = Record<string, unknown>;
const NAME = "session_snapshot.v1";
const SCHEMA = JSON.parse(readFileSync(join(FIXTURES, "..", "..", "schemas", `${NAME}.json`), "utf8")) as Obj;
const DOCS = join(FIXTURES, "schemas");

const SUPPORTED = new Set([
  "type",
  "enum",
  "const",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
  "prefixItems",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "format",
]);
const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples"]);

function newAjv(options: Obj = {}) {
  const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (o: Obj) => {
    compile(s: unknown): ((v: unknown) => boolean) & { errors?: unknown };
    addFormat(name: string, f: (s: string) => boolean): unknown;
  };
  const ajv = new Ctor({ allErrors: true, allowUnionTypes: true, ...options });
  ajv.addFormat("date-time", isDateTime);
  return ajv;
}

function walk(schema: unknown, at: string, visit: (s: Obj, at: string) => void): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return;
  const s = schema as Obj;
  visit(s, at);
  for (const key of ["properties", "patternProperties", "$defs"]) {
    const map = s[key] as Obj | undefined;
    if (map) { for (const [k, sub] of Object.entries(map)) walk(sub, `${at}/${key}/${k}`, visit); }
  }
  for (const key of ["items", "additionalProperties", "not", "if", "then", "else"]) walk(s[key], `${at}/${key}`, visit);
  for (const key of ["prefixItems", "allOf", "anyOf", "oneOf"]) {
    const list = s[key] as unknown[] | undefined;
    if (Array.isArray(list)) list.forEach((sub, i) => walk(sub, `${at}/${key}/${i}`, visit));
  }
}

function docs(kind: "valid" | "invalid"): string[] {
  return readdirSync(join(DOCS, kind, NAME)).filter((f) => f.endsWith(".json") && f !== "expected.json").sort();
}

function read(kind: "valid" | "invalid", file: string): unknown {
  return JSON.parse(readFileSync(join(DOCS, kind, NAME, file), "utf8"));
}

describe("schemas/session_snapshot.v1.json", () => {
  test("the schema lib/session loads is the file in schemas/", () => {
    assert.deepEqual(sessionSnapshotSchema(), SCHEMA);
  });

  test("declares draft 2020-12, its rehydrate.dev $id, a title, a description and its additionalProperties decision", () => {
    assert.equal(SCHEMA.$schema, "https://json-schema.org/draft/2020-12/schema");
    assert.equal(SCHEMA.$id, `https://rehydrate.dev/schemas/${NAME}.json`);
    assert.equal(typeof SCHEMA.title, "string");
    assert.equal(typeof SCHEMA.description, "string");
    assert.equal(SCHEMA.additionalProperties, false);
    assert.match(String(SCHEMA.$comment), /additionalProperties is false/);
  });

  test("gives every property a description, every object an explicit additionalProperties, and uses only supported keywords", () => {
    const problems: string[] = [];
    walk(SCHEMA, "#", (s, at) => {
      for (const key of Object.keys(s)) {
        if (!SUPPORTED.has(key) && !ANNOTATIONS.has(key)) problems.push(`${at}: ${key}`);
      }
      if (s.format !== undefined && s.format !== "date-time") problems.push(`${at}: format ${s.format}`);
      const props = s.properties as Obj | undefined;
      if (!props) return;
      if (typeof s.additionalProperties !== "boolean") problems.push(`${at}: additionalProperties`);
      for (const [key, sub] of Object.entries(props)) {
        if (typeof (sub as Obj).description !== "string") problems.push(`${at}/properties/${key}: description`);
      }
    });
    assert.deepEqual(problems, []);
  });

  test("compiles under ajv's strict mode", () => {
    assert.doesNotThrow(() => newAjv({ strict: true, allowUnionTypes: true, strictRequired: false }).compile(SCHEMA));
  });

  test("accepts every valid document, as ajv does", () => {
    const ajv = newAjv().compile(SCHEMA);
    assert.ok(docs("valid").length >= 3);
    for (const file of docs("valid")) {
      assert.deepEqual(validateSchema(SCHEMA, read("valid", file)), [], file);
      assert.equal(ajv(read("valid", file)), true, `ajv rejects ${file}`);
    }
  });

  test("rejects every invalid document with exactly the expected paths and keywords, as ajv does", () => {
    const ajv = newAjv().compile(SCHEMA);
    const expected = JSON.parse(readFileSync(join(DOCS, "invalid", NAME, "expected.json"), "utf8")) as Record<
      string,
      { path: string; keyword: string }[]
    >;
    assert.deepEqual(Object.keys(expected).sort(), docs("invalid"));
    const order = (a: { path: string; keyword: string }, b: { path: string; keyword: string }) =>
      (a.path + " " + a.keyword).localeCompare(b.path + " " + b.keyword);
    for (const file of docs("invalid")) {
      const got = validateSchema(SCHEMA, read("invalid", file)).map(({ path, keyword }) => ({ path, keyword }));
      assert.deepEqual(got.sort(order), [...expected[file]].sort(order), file);
      assert.equal(ajv(read("invalid", file)), false, `ajv accepts ${file}`);
    }
  });
});
