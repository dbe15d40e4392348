// The configuration reference (docs/configuration.md) is generated from schemas/config.v1.json, so
// it cannot drift: this test fails when they differ, and UPDATE_GOLDEN=1 rewrites the table. The
// README's example config must stay valid.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../lib/config/default_config.ts";

const DEFAULT_CONFIG = defaultConfig();

const ROOT = join(import.meta.dirname!, "..", "..");
const START = "<!-- config-table:start (generated from schemas/config.v1.json by tests/unit/readme.test.ts) -->";
const END = "<!-- config-table:end -->";

type Schema = {
  properties?: Record<string, Schema>;
  default?: unknown;
  description?: string;
  type?: unknown;
  enum?: unknown[];
  "x-scope"?: string;
  "x-path"?: string;
};

function rows(schema: Schema, path: string[] = []): string[] {
  if (schema.properties) return Object.entries(schema.properties).flatMap(([k, v]) => rows(v, [...path, k]));
  const type = schema.enum
    ? schema.enum.map((e) => JSON.stringify(e)).join(" \\| ")
    : [schema.type].flat().join(" \\| ");
  const cell = (s: string) => s.replaceAll("|", "\\|");
  // Who may set it (issue #22): a project's own .claude/rehydrate.json is not trusted.
  const who = schema["x-scope"] === "user"
    ? "user only"
    : schema["x-path"] === "project"
    ? "user, project (a path inside it)"
    : "user, project";
  return [
    `| \`${path.join(".")}\` | ${type} | \`${JSON.stringify(schema.default)}\` | ${who} | ${
      cell(schema.description ?? "")
    } |`,
  ];
}

function table(): string {
  const schema = JSON.parse(readFileSync(join(ROOT, "schemas", "config.v1.json"), "utf8")) as Schema;
  return ["| key | type | default | set by | what it does |", "|---|---|---|---|---|", ...rows(schema)].join("\n");
}

test("docs/configuration.md lists every key of schemas/config.v1.json with its default", () => {
  const doc = readFileSync(join(ROOT, "docs", "configuration.md"), "utf8");
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  assert.ok(a >= 0 && b > a, "docs/configuration.md has no config-table markers");
  const want = `${START}\n${table()}\n${END}`;
  if (process.env.UPDATE_GOLDEN === "1") {
    writeFileSync(join(ROOT, "docs", "configuration.md"), doc.slice(0, a) + want + doc.slice(b + END.length));
  }
  assert.equal(readFileSync(join(ROOT, "docs", "configuration.md"), "utf8").slice(a, a + want.length), want);
});

test("the README's example config is valid and names only real keys", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = readme.slice(readme.indexOf("## Configuration")).match(/```json\n([\s\S]*?)```/);
  assert.ok(block);
  const example = JSON.parse(block[1]);
  const walk = (o: Record<string, unknown>, d: Record<string, unknown>, at: string): void => {
    for (const [k, v] of Object.entries(o)) {
      assert.ok(k in d, `unknown key ${at}${k}`);
      if (v && typeof v === "object" && !Array.isArray(v)) {
        walk(v as Record<string, unknown>, d[k] as Record<string, unknown>, `${at}${k}.`);
      }
    }
  };
  walk(example, DEFAULT_CONFIG as unknown as Record<string, unknown>, "");
});
