// Legacy hand-written input (issue #26): the design's flat state and its minimal _resume.md are
// read leniently; everything else stays strict.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { upgradeLegacyState } from "../../../lib/projects/legacy_state.ts";
import { checkManifestText, validationGate } from "../../../lib/projects/manifest_text.ts";
import { readManifest } from "../../../lib/projects/read_manifest.ts";
import { validateSchema } from "../../../lib/schema/validate_schema.ts";
import { precompactStateSchema } from "../../../lib/projects/precompact_state_schema.ts";

describe("upgradeLegacyState()", () => {
  test("the design's four-field state: the timestamp read as local time, notes say what was lenient", () => {
    const up = upgradeLegacyState({
      active_project_id: "24-project-x",
      confidence: "high",
      detection_method: "transcript",
      timestamp: "2026-01-03T14:00:00",
    });
    assert.ok(up);
    assert.equal(up.state.timestamp, new Date("2026-01-03T14:00:00").toISOString());
    assert.deepEqual(validateSchema(precompactStateSchema(), up.state), []);
    assert.ok(up.notes.some((n) => n.includes("no UTC offset")));
    assert.ok(up.notes.some((n) => n.includes("no session_id")));
  });

  test("the older variant: created_at, transcript_analysis, fallback_chain, offset-less tool call times", () => {
    const up = upgradeLegacyState({
      active_project_id: "24-project-x",
      confidence: "unknown",
      detection_method: "transcript_analysis",
      last_tool_calls: [{ tool: "Read", file: "a.md", timestamp: "2026-01-03T14:15:00" }],
      fallback_chain: ["transcript", "cache", "filesystem"],
      created_at: "2026-01-03T14:25:00",
    });
    assert.ok(up);
    assert.equal(up.state.detection_method, "transcript");
    assert.equal(up.state.confidence, "none");
    assert.equal("fallback_chain" in up.state, false);
    assert.match(String((up.state.last_tool_calls as { timestamp: string }[])[0].timestamp), /Z$/);
    assert.deepEqual(validateSchema(precompactStateSchema(), up.state), []);
  });

  test("what no reading fixes stays refused: nested detection, a bad id, a bad confidence, no timestamp", () => {
    assert.equal(upgradeLegacyState({ project_detection: { active_project_id: "01-x" } }), null);
    const base = { active_project_id: "01-x", confidence: "high", timestamp: "2026-01-03T14:00:00" };
    assert.equal(upgradeLegacyState({ ...base, active_project_id: "../etc" }), null);
    assert.equal(upgradeLegacyState({ ...base, confidence: "certain" }), null);
    assert.equal(upgradeLegacyState({ ...base, timestamp: undefined }), null);
    assert.equal(upgradeLegacyState({ ...base, extra_key: 1 }), null);
  });
});

describe("checkManifestText() with legacyFolder", () => {
  const MINIMAL = "---\nfiles_to_load:\n  - 01-planning/steps.md\nnext_action: execute-project\n---\n";

  test("a minimal _resume.md is filled from the folder; without legacyFolder it is refused", () => {
    assert.equal(checkManifestText(MINIMAL).ok, false);
    const r = checkManifestText(MINIMAL, { legacyFolder: "03-notes" });
    assert.ok(r.ok);
    assert.equal(r.data.project_id, "03-notes");
    assert.equal(r.data.project_name, "03-notes");
    assert.equal(r.data.next_action, "execute-project");
    assert.deepEqual(r.legacy.map((f) => f.field).sort(), [
      "current_phase",
      "last_updated",
      "project_id",
      "project_name",
      "resume_schema_version",
    ]);
  });

  test("files_to_load stays required, present fields stay checked, and the folder must be NN-kebab", () => {
    assert.equal(checkManifestText("---\nnext_action: x\n---\n", { legacyFolder: "03-notes" }).ok, false);
    assert.equal(
      checkManifestText("---\nfiles_to_load: [a.md]\ncurrent_phase: dreaming\n---\n", { legacyFolder: "03-notes" }).ok,
      false,
    );
    assert.equal(checkManifestText(MINIMAL, { legacyFolder: "Notes" }).ok, false);
  });

  test("readManifest() reads a minimal _resume.md, never a minimal resume-context.md", () => {
    const dir = mkdtempSync(join(tmpdir(), "rehydrate-legacy-"));
    try {
      const project = join(dir, "03-notes");
      mkdirSync(join(project, "01-planning"), { recursive: true });
      writeFileSync(join(project, "01-planning", "steps.md"), "- [ ] one\n");
      writeFileSync(join(project, "01-planning", "_resume.md"), MINIMAL);
      const m = readManifest(project);
      assert.ok(m.ok);
      assert.equal(m.legacy, true);
      assert.equal(m.data.project_id, "03-notes");
      writeFileSync(join(project, "01-planning", "resume-context.md"), MINIMAL);
      assert.equal(readManifest(project).ok, false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("validationGate()", () => {
  test("the section under the gate heading, up to the next heading of its level or a --- line", () => {
    const body =
      "\n# Notes\nfree text\n\n# Validation Gate\n\nBefore continuing:\n\n1. **Purpose**:\n   - [ ] What?\n\n## Detail\nkept\n\n# Other\nnot kept\n";
    assert.equal(
      validationGate(body, 1200),
      "# Validation Gate\n\nBefore continuing:\n\n1. **Purpose**:\n   - [ ] What?\n\n## Detail\nkept",
    );
    assert.equal(validationGate("# Validation gate\nQ?\n---\n*footer*\n", 1200), "# Validation gate\nQ?");
  });

  test("without a gate heading, the body up to its first --- line; empty gives null; long is cut", () => {
    assert.equal(validationGate("Answer these:\n1. Why?\n---\nfooter", 1200), "Answer these:\n1. Why?");
    assert.equal(validationGate("\n\n---\nfooter\n", 1200), null);
    const long = validationGate(`# Gate\n${"- [ ] a question\n".repeat(200)}`, 300)!;
    assert.ok(long.length <= 300 + 60, `${long.length}`);
    assert.match(long, /cut here: read the manifest for the rest\]$/);
  });
});
