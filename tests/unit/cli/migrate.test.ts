import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliMigrate } from "../../../lib/cli/migrate.ts";
import { readManifest } from "../../../lib/projects/read_manifest.ts";

const WORKSPACE = join(import.meta.dirname!, "..", "..", "fixtures", "workspace", "nexus");
const LEGACY = join("02-projects", "03-legacy-notes", "01-planning");

function runMigrate(args: string[]): { code: number; out: string; err: string } {
  let out = "";
  let err = "";
  const code = cliMigrate(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

function withWorkspace(fn: (ws: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-migrate-"));
  try {
    const ws = join(dir, "ws");
    cpSync(WORKSPACE, ws, { recursive: true });
    fn(ws);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("cliMigrate()", () => {
  test("cliMigrate() prints the plan and writes nothing without --apply", () => {
    withWorkspace((ws) => {
      const before = readFileSync(join(ws, LEGACY, "_resume.md"), "utf8");
      const r = runMigrate(["--project", ws]);
      assert.equal(r.code, 0);
      assert.match(
        r.out,
        /would migrate 02-projects\/03-legacy-notes\/01-planning\/_resume\.md -> 02-projects\/03-legacy-notes\/01-planning\/resume-context\.md/,
      );
      assert.match(r.out, /line 2: - resume_version: "0\.9"\n {2}line 2: \+ resume_schema_version: "0\.9"/);
      assert.match(r.out, /dry run: nothing written/);
      assert.equal(existsSync(join(ws, LEGACY, "resume-context.md")), false);
      assert.equal(readFileSync(join(ws, LEGACY, "_resume.md"), "utf8"), before);
    });
  });

  test("cliMigrate() --apply renames only the key, keeps every other byte and a backup, and is idempotent", () => {
    withWorkspace((ws) => {
      const legacyText = readFileSync(join(ws, LEGACY, "_resume.md"), "utf8");
      const r = runMigrate(["--project", ws, "--apply"]);
      assert.equal(r.code, 0, r.out);
      const converted = readFileSync(join(ws, LEGACY, "resume-context.md"), "utf8");
      assert.equal(converted, legacyText.replace("resume_version:", "resume_schema_version:"));
      assert.equal(readFileSync(join(ws, LEGACY, "_resume.md.bak"), "utf8"), legacyText);
      assert.equal(existsSync(join(ws, LEGACY, "_resume.md")), false);
      const m = readManifest(join(ws, "02-projects", "03-legacy-notes"));
      assert.ok(m.ok);
      assert.equal(m.ok && m.legacy, false);
      const again = runMigrate(["--project", ws, "--apply"]);
      assert.equal(again.code, 0);
      assert.match(again.out, /No _resume\.md manifests/);
      assert.equal(readFileSync(join(ws, LEGACY, "resume-context.md"), "utf8"), converted);
    });
  });

  test("cliMigrate() keeps comments, CRLF line ends and key order", () => {
    withWorkspace((ws) => {
      const text =
        '---\r\n# legacy manifest\r\n"resume_version": 0.9  # old key\r\nproject_id: "03-legacy-notes"\r\nproject_name: Legacy\r\ncurrent_phase: execution\r\nnext_action: execute-project\r\nfiles_to_load: [01-planning/steps.md]\r\nlast_updated: 2026-01-03\r\n---\r\nBody\r\n';
      writeFileSync(join(ws, LEGACY, "_resume.md"), text);
      assert.equal(runMigrate(["--project", join(ws, "02-projects", "03-legacy-notes"), "--apply"]).code, 0);
      assert.equal(
        readFileSync(join(ws, LEGACY, "resume-context.md"), "utf8"),
        text.replace('"resume_version"', '"resume_schema_version"'),
      );
    });
  });

  test("cliMigrate() never overwrites an existing resume-context.md", () => {
    withWorkspace((ws) => {
      writeFileSync(join(ws, LEGACY, "resume-context.md"), "mine\n");
      const r = runMigrate(["--project", ws, "--apply"]);
      assert.equal(r.code, 0);
      assert.match(r.out, /skip .*_resume\.md: .*resume-context\.md exists already/);
      assert.equal(readFileSync(join(ws, LEGACY, "resume-context.md"), "utf8"), "mine\n");
      assert.equal(existsSync(join(ws, LEGACY, "_resume.md")), true);
    });
  });

  test("cliMigrate() reports manifests it cannot convert, leaves them alone and exits 1", () => {
    withWorkspace((ws) => {
      const broken = join(ws, "02-projects", "04-broken", "01-planning");
      mkdirSync(broken, { recursive: true });
      writeFileSync(join(broken, "_resume.md"), "---\nresume_version: 1\nproject_id: 04-broken\n---\n");
      const both = join(ws, "02-projects", "05-both", "01-planning");
      mkdirSync(both, { recursive: true });
      writeFileSync(join(both, "_resume.md"), "---\nresume_version: 1\nresume_schema_version: 1\n---\n");
      const r = runMigrate(["--project", ws, "--apply"]);
      assert.equal(r.code, 1);
      assert.match(
        r.out,
        /cannot convert 02-projects\/04-broken\/01-planning\/_resume\.md: the result would not be a valid manifest/,
      );
      assert.match(r.out, /cannot convert 02-projects\/05-both\/01-planning\/_resume\.md: it has both/);
      assert.match(r.out, /1 migrated, 0 already migrated, 2 cannot be converted/);
      assert.equal(existsSync(join(broken, "resume-context.md")), false);
      assert.equal(existsSync(join(broken, "_resume.md")), true);
    });
  });

  test("cliMigrate() completes a minimal hand-written _resume.md, adding the missing fields at the end (issue #26)", () => {
    withWorkspace((ws) => {
      const minimal =
        "---\r\nfiles_to_load:\r\n  - 01-planning/steps.md\r\nnext_action: execute-project\r\n---\r\nBody\r\n";
      writeFileSync(join(ws, LEGACY, "_resume.md"), minimal);
      const dry = runMigrate(["--project", ws]);
      assert.equal(dry.code, 0, dry.out);
      assert.match(
        dry.out,
        /line 5: \+ # added by rehydrate migrate from a legacy _resume\.md\n {2}line 6: \+ resume_schema_version: "1\.0"/,
      );
      assert.match(dry.out, /\+ project_id: "03-legacy-notes"/);
      const r = runMigrate(["--project", ws, "--apply"]);
      assert.equal(r.code, 0, r.out);
      const text = readFileSync(join(ws, LEGACY, "resume-context.md"), "utf8");
      assert.ok(
        text.startsWith("---\r\nfiles_to_load:\r\n  - 01-planning/steps.md\r\nnext_action: execute-project\r\n# added"),
      );
      assert.ok(text.endsWith("---\r\nBody\r\n"), "the body and the line ends are kept");
      assert.match(text, /current_phase: execution\r\n/, "the phase comes from the steps file");
      const m = readManifest(join(ws, "02-projects", "03-legacy-notes"));
      assert.ok(m.ok && !m.legacy);
    });
  });

  test("cliMigrate() rewrites a hand-written flat state in the strict form, keeping a .bak (issue #26)", () => {
    withWorkspace((ws) => {
      const cache = join(ws, "00-system", ".cache");
      mkdirSync(cache, { recursive: true });
      const legacy = {
        active_project_id: "01-website-redesign",
        confidence: "high",
        detection_method: "transcript",
        timestamp: "2026-01-03T14:00:00",
      };
      writeFileSync(join(cache, "precompact_state.json"), JSON.stringify(legacy));
      const dry = runMigrate(["--project", ws]);
      assert.match(
        dry.out,
        /would upgrade the legacy state 00-system\/\.cache\/precompact_state\.json: [^\n]*no UTC offset/,
      );
      assert.deepEqual(JSON.parse(readFileSync(join(cache, "precompact_state.json"), "utf8")), legacy);
      const r = runMigrate(["--project", ws, "--apply"]);
      assert.equal(r.code, 0, r.out);
      const upgraded = JSON.parse(readFileSync(join(cache, "precompact_state.json"), "utf8"));
      assert.equal(upgraded.schema_version, 1);
      assert.equal(upgraded.timestamp, new Date("2026-01-03T14:00:00").toISOString());
      assert.deepEqual(JSON.parse(readFileSync(join(cache, "precompact_state.json.bak"), "utf8")), legacy);
      assert.doesNotMatch(runMigrate(["--project", ws, "--apply"]).out, /legacy state/, "idempotent");
    });
  });

  test("cliMigrate() has help, refuses bad usage with exit 2 and a missing project with exit 1", () => {
    const help = runMigrate(["--help"]);
    assert.equal(help.code, 0);
    assert.match(help.out, /Examples:/);
    assert.equal(runMigrate(["--bogus"]).code, 2);
    assert.equal(runMigrate(["--project"]).code, 2);
    assert.equal(runMigrate(["--project", "/nonexistent/rehydrate/dir"]).code, 1);
  });
});
