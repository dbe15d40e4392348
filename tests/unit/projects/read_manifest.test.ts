import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readManifest } from "../../../lib/projects/read_manifest.ts";

const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures", "workspace");
const PROJECTS = join(FIXTURES, "nexus", "02-projects");
const EXTRA = join(FIXTURES, "extra-projects");

describe("readManifest()", () => {
  test("readManifest() reads and validates resume-context.md and resolves files_to_load", () => {
    const m = readManifest(join(PROJECTS, "01-website-redesign"));
    assert.ok(m.ok);
    if (!m.ok) return;
    assert.equal(m.file, "01-planning/resume-context.md");
    assert.equal(m.legacy, false);
    assert.equal(m.data.current_phase, "execution");
    assert.deepEqual(m.files.map((f) => [f.rel, f.status]), [
      ["01-planning/01-overview.md", "ok"],
      ["01-planning/03-plan.md", "ok"],
      ["01-planning/04-steps.md", "ok"],
    ]);
    assert.deepEqual(m.warnings, []);
  });

  test("readManifest() accepts a legacy _resume.md with resume_version", () => {
    const m = readManifest(join(PROJECTS, "03-legacy-notes"));
    assert.ok(m.ok && m.legacy && m.file === "01-planning/_resume.md");
  });

  test("readManifest() refuses .., absolute paths elsewhere and links out, entry by entry", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-manifest-"));
    try {
      const project = join(dir, "06-escape-attempt");
      cpSync(join(EXTRA, "06-escape-attempt"), project, { recursive: true });
      writeFileSync(join(dir, "outside.txt"), "x");
      symlinkSync(join(dir, "outside.txt"), join(project, "link-out"));
      const m = readManifest(project);
      assert.ok(m.ok);
      if (!m.ok) return;
      assert.deepEqual(m.files.map((f) => [f.entry, f.status]), [
        ["../../etc/passwd", "outside"],
        ["/etc/hosts", "outside"],
        ["link-out", "outside"],
        ["01-planning/01-overview.md", "ok"],
      ]);
      assert.equal(m.files[0].abs, null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("readManifest() reports invalid frontmatter, schema problems and a missing manifest with codes and lines", () => {
    const broken = readManifest(join(EXTRA, "04-broken-frontmatter"));
    assert.ok(!broken.ok && broken.problem === "invalid_frontmatter");
    if (!broken.ok) assert.equal(broken.issues[0].code, "UNTERMINATED_FRONTMATTER");
    const invalid = readManifest(join(EXTRA, "05-invalid-manifest"));
    assert.ok(!invalid.ok && invalid.problem === "invalid_manifest");
    if (!invalid.ok) {
      assert.deepEqual(invalid.issues.map((i) => [i.field, i.code, i.line]), [
        ["next_action", "required", 1],
        ["current_phase", "enum", 6],
      ]);
    }
    const missing = readManifest(join(EXTRA, "08-no-manifest"));
    assert.ok(!missing.ok && missing.problem === "missing" && missing.file === null);
  });

  test("readManifest() warns when project_id is not the folder's name", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-manifest-"));
    try {
      cpSync(join(PROJECTS, "02-api-migration"), join(dir, "07-renamed"), { recursive: true });
      const m = readManifest(join(dir, "07-renamed"));
      assert.ok(m.ok);
      if (m.ok) {
        assert.deepEqual(m.warnings.map((w) => [w.field, w.code, w.line]), [["project_id", "project_id_mismatch", 4]]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
