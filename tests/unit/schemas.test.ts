import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { validateSchema } from "../../lib/schema/validate_schema.ts";
import type { JsonSchema } from "../../lib/schema/validate_schema.ts";
import { isDateTime } from "../../lib/schema/_check.ts";
import { configSchema } from "../../lib/config/config_schema.ts";

const CONFIG_SCHEMA = configSchema();
import { defaultConfig } from "../../lib/config/default_config.ts";

const DEFAULT_CONFIG = defaultConfig();

type Obj = Record<string, unknown>;

const ROOT = join(import.meta.dirname!, "..", "..");
const SCHEMA_DIR = join(ROOT, "schemas");
const FIXTURES = join(ROOT, "tests", "fixtures", "schemas");
const SCHEMA_NAMES = [
  "checkpoint.v1",
  "compaction_record.v1",
  "config.v1",
  "context_monitor_state.v1",
  "fill_warning_state.v1",
  "precompact_state.v1",
  "quiet_prompt_memo.v1",
  "reread_marker.v1",
  "restore_record.v1",
  "resume_context.v1",
  "session_record.v1",
  "session_role.v1",
  "session_snapshot.v1",
];

// Keywords validateSchema implements, and annotations it may ignore safely.
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
// x-scope and x-path: config.v1.json's own annotations, enforced by lib/config/_merge.ts (tests/unit/config/config_scope.test.ts).
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "title",
  "description",
  "default",
  "examples",
  "x-scope",
  "x-path",
]);

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function loadSchema(name: string): Obj {
  return readJson(join(SCHEMA_DIR, `${name}.json`)) as Obj;
}

function newAjv(options: Obj = {}) {
  const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (o: Obj) => {
    compile(s: unknown): ((v: unknown) => boolean) & { errors?: unknown };
    addFormat(name: string, f: (s: string) => boolean): unknown;
  };
  // x-scope and x-path are config.v1.json's own annotations (who may set a key; paths that stay inside the project).
  const ajv = new Ctor({ allErrors: true, allowUnionTypes: true, keywords: ["x-scope", "x-path"], ...options });
  ajv.addFormat("date-time", isDateTime);
  return ajv;
}

/** Calls `visit` on every subschema, with its location in the schema. */
function walkSchema(schema: unknown, at: string, visit: (s: Obj, at: string) => void): void {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return;
  const s = schema as Obj;
  visit(s, at);
  for (const key of ["properties", "patternProperties", "$defs"]) {
    const map = s[key] as Obj | undefined;
    if (map) { for (const [k, sub] of Object.entries(map)) walkSchema(sub, `${at}/${key}/${k}`, visit); }
  }
  for (const key of ["items", "additionalProperties", "not", "if", "then", "else"]) {
    walkSchema(s[key], `${at}/${key}`, visit);
  }
  for (const key of ["prefixItems", "allOf", "anyOf", "oneOf"]) {
    const list = s[key] as unknown[] | undefined;
    if (Array.isArray(list)) list.forEach((sub, i) => walkSchema(sub, `${at}/${key}/${i}`, visit));
  }
}

function fixtureFiles(kind: "valid" | "invalid", name: string): string[] {
  return readdirSync(join(FIXTURES, kind, name)).filter((f) => f.endsWith(".json") && f !== "expected.json").sort();
}

describe("schemas/", () => {
  test("the schema directory holds exactly the known schemas", () => {
    const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith(".json")).sort();
    assert.deepEqual(files, SCHEMA_NAMES.map((n) => `${n}.json`));
  });

  for (const name of SCHEMA_NAMES) {
    describe(`${name}.json`, () => {
      const schema = loadSchema(name);

      test("declares draft 2020-12, its rehydrate.dev $id, a title and a description", () => {
        assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
        assert.equal(schema.$id, `https://rehydrate.dev/schemas/${name}.json`);
        assert.equal(typeof schema.title, "string");
        assert.equal(typeof schema.description, "string");
      });

      test("documents its additionalProperties decision at the top", () => {
        assert.equal(typeof schema.additionalProperties, "boolean");
        assert.match(String(schema.$comment), /additionalProperties is (true|false)/);
      });

      test("gives every property a description and every object an explicit additionalProperties", () => {
        const problems: string[] = [];
        walkSchema(schema, "#", (s, at) => {
          const props = s.properties as Obj | undefined;
          if (!props) return;
          if (typeof s.additionalProperties !== "boolean") problems.push(`${at}: additionalProperties`);
          for (const [key, sub] of Object.entries(props)) {
            if (typeof (sub as Obj).description !== "string") problems.push(`${at}/properties/${key}: description`);
          }
        });
        assert.deepEqual(problems, []);
      });

      test("uses only keywords that validateSchema implements", () => {
        const unknown: string[] = [];
        walkSchema(schema, "#", (s, at) => {
          for (const key of Object.keys(s)) {
            if (!SUPPORTED.has(key) && !ANNOTATIONS.has(key)) unknown.push(`${at}: ${key}`);
          }
          if (s.format !== undefined && s.format !== "date-time") unknown.push(`${at}: format ${s.format}`);
        });
        assert.deepEqual(unknown, []);
      });

      test("compiles under ajv's strict mode, which catches misspelt keywords", () => {
        // Union types ("string" or "null") and `required` inside anyOf branches are deliberate.
        const ajv = newAjv({ strict: true, allowUnionTypes: true, strictRequired: false });
        assert.doesNotThrow(() => ajv.compile(schema));
      });

      test("has at least one valid and one invalid fixture", () => {
        assert.ok(fixtureFiles("valid", name).length > 0);
        assert.ok(fixtureFiles("invalid", name).length > 0);
      });

      test("accepts every valid fixture, as ajv does", () => {
        const ajvValidate = newAjv().compile(schema);
        for (const file of fixtureFiles("valid", name)) {
          const doc = readJson(join(FIXTURES, "valid", name, file));
          assert.deepEqual(validateSchema(schema, doc), [], file);
          assert.equal(ajvValidate(doc), true, `ajv rejects ${file}`);
        }
      });

      test("rejects every invalid fixture with exactly the expected paths and keywords, as ajv does", () => {
        const ajvValidate = newAjv().compile(schema);
        const expected = readJson(join(FIXTURES, "invalid", name, "expected.json")) as Record<
          string,
          { path: string; keyword: string }[]
        >;
        const files = fixtureFiles("invalid", name);
        assert.deepEqual(Object.keys(expected).sort(), files);
        for (const file of files) {
          const doc = readJson(join(FIXTURES, "invalid", name, file));
          const got = validateSchema(schema, doc).map(({ path, keyword }) => ({ path, keyword }));
          const order = (a: { path: string; keyword: string }, b: { path: string; keyword: string }) =>
            (a.path + " " + a.keyword).localeCompare(b.path + " " + b.keyword);
          assert.deepEqual(got.sort(order), [...expected[file]].sort(order), file);
          assert.equal(ajvValidate(doc), false, `ajv accepts ${file}`);
        }
      });
    });
  }
});

describe("config.v1.json and the defaults", () => {
  test("every object level is closed and every leaf has a default, with no $ref", () => {
    const problems: string[] = [];
    const visit = (s: Obj, at: string): void => {
      if ("$ref" in s) problems.push(`${at}: $ref`);
      const props = s.properties as Record<string, Obj> | undefined;
      if (props) {
        if (s.additionalProperties !== false) problems.push(`${at}: additionalProperties`);
        for (const [key, sub] of Object.entries(props)) visit(sub, `${at}/${key}`);
      } else if (!("default" in s)) {
        problems.push(`${at}: default`);
      }
    };
    visit(CONFIG_SCHEMA as unknown as Obj, "");
    assert.deepEqual(problems, []);
  });

  test("DEFAULT_CONFIG validates against the schema", () => {
    assert.deepEqual(validateSchema(CONFIG_SCHEMA as unknown as JsonSchema, DEFAULT_CONFIG), []);
    assert.equal(newAjv().compile(CONFIG_SCHEMA)(DEFAULT_CONFIG), true);
  });

  test("every schema default equals DEFAULT_CONFIG at the same key, and DEFAULT_CONFIG has no other keys", () => {
    const fromSchema: Obj = {};
    const collect = (s: Obj, into: Obj): void => {
      for (const [key, sub] of Object.entries(s.properties as Record<string, Obj>)) {
        if (sub.properties) collect(sub, (into[key] = {}) as Obj);
        else into[key] = sub.default;
      }
    };
    collect(CONFIG_SCHEMA as unknown as Obj, fromSchema);
    assert.deepEqual(fromSchema, structuredClone(DEFAULT_CONFIG));
  });

  test("defaultConfig() gives a fresh copy each call, sharing nothing", () => {
    const a = defaultConfig();
    const b = defaultConfig();
    assert.deepEqual(a, b);
    assert.notEqual(a.orchestration.thresholds, b.orchestration.thresholds);
    assert.notEqual(a.projects.manifestNames, b.projects.manifestNames);
  });
});
