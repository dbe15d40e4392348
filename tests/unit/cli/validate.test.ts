import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliValidate } from "../../../lib/cli/validate.ts";
import { SCHEMAS } from "../../../lib/cli/_schemas.ts";

const HERE = join(import.meta.dirname!, "..");
const ROOT = join(HERE, "..", "..");
const M = join(HERE, "..", "fixtures", "workspace", "manifests");
const S = join(HERE, "..", "fixtures", "workspace", "states");

function runValidate(args: string[]): { code: number; out: string[]; err: string } {
  let out = "";
  let err = "";
  const code = cliValidate(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out: out.split("\n").filter((l) => l !== ""), err };
}

describe("embedded schemas", () => {
  test("lib/cli/_schemas.ts holds every schemas/*.json file, unchanged", () => {
    const files = readdirSync(join(ROOT, "schemas")).filter((f) => f.endsWith(".v1.json")).sort();
    assert.deepEqual(Object.keys(SCHEMAS).map((n) => `${n}.v1.json`).sort(), files);
    for (const f of files) {
      assert.deepEqual(
        SCHEMAS[f.replace(".v1.json", "") as keyof typeof SCHEMAS],
        JSON.parse(readFileSync(join(ROOT, "schemas", f), "utf8")),
        f,
      );
    }
  });
});

describe("cliValidate()", () => {
  test("cliValidate() accepts a valid manifest, a legacy one and a valid state file with exit 0", () => {
    const r = runValidate([join(M, "valid.md"), join(M, "legacy.md"), join(S, "precompact-valid.json")]);
    assert.equal(r.code, 0);
    assert.equal(r.out[0], `${join(M, "valid.md")}: ok (manifest)`);
    assert.equal(
      r.out[1],
      `${join(M, "legacy.md")}: legacy (manifest): the legacy key resume_version; rehydrate migrate upgrades it`,
    );
    assert.equal(r.out[2], `${join(S, "precompact-valid.json")}: ok (precompact_state)`);
  });

  test("cliValidate() prints file:line: field: message for each problem of a manifest and exits 1", () => {
    const file = join(M, "bad-fields.md");
    const r = runValidate(["--quiet", file]);
    assert.equal(r.code, 1);
    const fields = r.out.map((l) => {
      const m = /^(.*):(\d+): ([^:]+): (.+)$/.exec(l)!;
      assert.equal(m[1], file);
      return [m[3], Number(m[2])];
    });
    assert.deepEqual(fields, [
      ["next_action", 1],
      ["project_id", 4],
      ["current_phase", 6],
      ["current_task", 10],
    ]);
  });

  test("cliValidate() reports a files_to_load entry that leaves the project folder at its line", () => {
    const text = readFileSync(join(M, "valid.md"), "utf8").replace(
      "  - 01-planning/03-plan.md",
      "  - ../../secrets.env",
    );
    const tmp = join(HERE, "..", "fixtures", "workspace", "manifests", ".tmp-escape.md");
    writeFileSync(tmp, text);
    try {
      const r = runValidate([tmp]);
      assert.equal(r.code, 1);
      assert.deepEqual(r.out, [`${tmp}:15: files_to_load[1]: Path leaves the project folder; it will not be loaded`]);
    } finally {
      rmSync(tmp, { force: true });
    }
  });

  test("cliValidate() reports unterminated frontmatter at the parser's line", () => {
    const r = runValidate([join(M, "unterminated.md")]);
    assert.equal(r.code, 1);
    assert.equal(r.out.length, 1);
    assert.match(r.out[0], /unterminated\.md:1: frontmatter: /);
  });

  test("cliValidate() tells state files by content and locates nested fields", () => {
    const r = runValidate([join(S, "precompact-bad.json")]);
    assert.equal(r.code, 1);
    const located = r.out.map((l) =>
      /^.*?:(\d+): ([^:]+): /.exec(l.slice(join(S, "precompact-bad.json").length))!.slice(1)
    );
    assert.deepEqual(located, [["3", "confidence"], ["7", "working_set[0].score"]]);
  });

  test("cliValidate() validates a config file and says so when it cannot tell the kind", () => {
    const cfg = runValidate([join(S, "rehydrate.json")]);
    assert.equal(cfg.code, 1);
    assert.match(cfg.out[0], /rehydrate\.json:2: budget\.maxChars: /);
    const unknown = runValidate([join(S, "unknown.json")]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.out[0], /unknown\.json:1: \(root\): Cannot tell which kind/);
    assert.equal(runValidate(["--kind", "session_record", join(S, "unknown.json")]).code, 1);
  });

  test("cliValidate() reports JSON syntax errors and unreadable files", () => {
    const broken = runValidate([join(S, "broken.json")]);
    assert.equal(broken.code, 1);
    assert.match(broken.out[0], /broken\.json:\d+: \(root\): Cannot parse JSON/);
    const missing = runValidate([join(S, "nope.json")]);
    assert.equal(missing.code, 1);
    assert.match(missing.out[0], /nope\.json:0: \(root\): Cannot read the file: ENOENT/);
  });

  test("cliValidate() has help with examples and refuses bad usage with exit 2", () => {
    const help = runValidate(["--help"]);
    assert.equal(help.code, 0);
    assert.ok(help.out.some((l) => l.includes("Examples:")));
    assert.equal(runValidate([]).code, 2);
    assert.equal(runValidate(["--kind", "nope", "x.json"]).code, 2);
    assert.equal(runValidate(["--frobnicate"]).code, 2);
  });
});
