// The fallback chain of PreCompact's project state (docs/projects.md): transcript, then this
// session's previous state, then the newest manifest. The compiled binaries run the same
// scenarios in tests/bin/workflow_gaps.test.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseProject } from "../../../lib/projects/_detection_chain.ts";
import type { PrecompactState } from "../../../lib/projects/_state.ts";

const MANIFESTS = ["01-planning/resume-context.md", "_resume.md"];

function projects(ids: string[]): string {
  const root = join(mkdtempSync(join(tmpdir(), "rehydrate-chain-")), "02-projects");
  for (const id of ids) {
    mkdirSync(join(root, id, "01-planning"), { recursive: true });
    writeFileSync(join(root, id, "01-planning", "resume-context.md"), "---\n---\n");
  }
  return root;
}

function previous(
  id: string | null,
  confidence: PrecompactState["confidence"],
  switched: string | null = null,
): PrecompactState {
  return {
    active_project_id: id,
    confidence,
    detection_method: "transcript",
    timestamp: "2026-11-21T10:00:00.000Z",
    switched_to_skill: switched,
  };
}

function touch(path: string, seconds: number): void {
  const t = new Date(Date.now() + seconds * 1000);
  utimesSync(path, t, t);
}

describe("chooseProject()", () => {
  test("chooseProject() keeps the transcript's project when it is as sure as the previous state", () => {
    const root = projects(["01-a", "02-b"]);
    const chosen = chooseProject({
      transcript: { id: "02-b", confidence: "high", switchedToSkill: null },
      transcriptRead: true,
      previous: previous("01-a", "high"),
      projectsPath: root,
      manifestNames: MANIFESTS,
    });
    assert.deepEqual(chosen, { id: "02-b", confidence: "high", method: "transcript", switchedToSkill: null });
  });

  test("chooseProject() keeps a surer previous state over a weaker transcript (cache)", () => {
    const root = projects(["01-a", "02-b"]);
    const chosen = chooseProject({
      transcript: { id: "02-b", confidence: "medium", switchedToSkill: null },
      transcriptRead: true,
      previous: previous("01-a", "high", "paper-search"),
      projectsPath: root,
      manifestNames: MANIFESTS,
    });
    assert.deepEqual(chosen, { id: "01-a", confidence: "high", method: "cache", switchedToSkill: "paper-search" });
  });

  test("chooseProject() takes a newer skill switch on the same project from the transcript", () => {
    const root = projects(["01-a"]);
    const chosen = chooseProject({
      transcript: { id: "01-a", confidence: "low", switchedToSkill: "paper-search" },
      transcriptRead: true,
      previous: previous("01-a", "high"),
      projectsPath: root,
      manifestNames: MANIFESTS,
    });
    assert.deepEqual(chosen, { id: "01-a", confidence: "high", method: "cache", switchedToSkill: "paper-search" });
  });

  test("chooseProject() ignores a previous state whose project folder is gone", () => {
    const root = projects(["02-b"]);
    const chosen = chooseProject({
      transcript: null,
      transcriptRead: true,
      previous: previous("01-a", "high"),
      projectsPath: root,
      manifestNames: MANIFESTS,
    });
    assert.deepEqual(chosen, { id: null, confidence: "none", method: "transcript", switchedToSkill: null });
  });

  test("chooseProject() falls back to the newest manifest only when no transcript was read", () => {
    const root = projects(["01-a", "02-b", "03-c"]);
    touch(join(root, "02-b", "01-planning", "resume-context.md"), 60);
    const input = { transcript: null, previous: previous(null, "none"), projectsPath: root, manifestNames: MANIFESTS };
    assert.deepEqual(chooseProject({ ...input, transcriptRead: false }), {
      id: "02-b",
      confidence: "low",
      method: "fallback",
      switchedToSkill: null,
    });
    assert.equal(
      chooseProject({ ...input, transcriptRead: true }).id,
      null,
      "a read transcript that names nothing is believed",
    );
  });

  test("chooseProject() does not count a manifest that is a link", () => {
    const root = projects(["01-a", "02-b"]);
    const real = join(root, "..", "elsewhere.md");
    writeFileSync(real, "---\n---\n");
    touch(real, 120);
    // 02-b's only manifest is a link to the newest file: it must not make 02-b the newest.
    rmSync(join(root, "02-b", "01-planning", "resume-context.md"));
    symlinkSync(real, join(root, "02-b", "_resume.md"));
    const chosen = chooseProject({
      transcript: null,
      transcriptRead: false,
      previous: null,
      projectsPath: root,
      manifestNames: MANIFESTS,
    });
    assert.equal(chosen.id, "01-a");
  });
});
