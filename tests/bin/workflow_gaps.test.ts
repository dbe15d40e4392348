// What issue #26 found missing in the project and dispatch workflows, checked on the compiled
// binaries: a worse save never replaces a better one (the transcript, then the previous state,
// then the newest manifest), a medium-confidence resume asks the agent to verify the project, and
// a handler re-reads the project's handler-state.md without any configuration.
//
// REHYDRATE_TEST_DIST runs the same scenarios against another build (an older commit's dist/),
// to show that they fail there.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, EXE, FIXTURES, ROOT, run } from "./_bin.ts";
import { writeDemoTranscript } from "../../examples/demo_transcript.ts";

const OTHER_DIST = process.env.REHYDRATE_TEST_DIST;

function hookBin(name: string): string {
  return OTHER_DIST ? join(OTHER_DIST, name + EXE) : bin(name);
}

function payload(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", file), "utf8"));
}

const TEMPLATE: Record<string, string> = {
  "pre-compact": "PreCompact-manual.json",
  "session-start": "SessionStart-compact.json",
  "pre-tool-use": "PreToolUse-Read.json",
  "post-tool-use": "PostToolUse-Read.json",
  "stop": "Stop.json",
};

interface Sandbox {
  tmp: string;
  project: string;
  sessionId: string;
  transcript: string;
  call(hook: string, extra?: Record<string, unknown>): string;
  /** The per-session state copy and the flat workspace file. */
  states(): Record<string, unknown>[];
}

function workspace(sessionId = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d"): Sandbox {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-gaps-"));
  const project = join(tmp, "workspace");
  cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  return sandbox(tmp, project, sessionId);
}

function sandbox(tmp: string, project: string, sessionId: string): Sandbox {
  const home = join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const state = join(tmp, "state");
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project, REHYDRATE_STATE_DIR: state };
  const transcript = join(tmp, `${sessionId}.jsonl`);
  return {
    tmp,
    project,
    sessionId,
    transcript,
    call(hook, extra = {}) {
      const input = {
        ...payload(TEMPLATE[hook]),
        session_id: sessionId,
        transcript_path: transcript,
        cwd: project,
        ...extra,
      };
      const r = run(hookBin(hook), [], { stdin: JSON.stringify(input), env, cwd: project });
      assert.equal(r.status, 0, `${hook}: exit ${r.status} ${r.stderr}`);
      return r.stdout;
    },
    states() {
      const session = JSON.parse(readFileSync(join(state, "sessions", `${sessionId}.precompact.json`), "utf8"));
      const flat = JSON.parse(readFileSync(join(project, "00-system", ".cache", "precompact_state.json"), "utf8"));
      return [session, flat];
    },
  };
}

function context(stdout: string): string {
  return JSON.parse(stdout).hookSpecificOutput.additionalContext;
}

function pick(state: Record<string, unknown>): [unknown, unknown, unknown] {
  return [state.active_project_id, state.confidence, state.detection_method];
}

describe("a worse save never replaces a better one (issue #26)", () => {
  test("a second PreCompact whose transcript cannot be read keeps the project, by the previous state", () => {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    s.call("pre-compact");
    for (const st of s.states()) assert.deepEqual(pick(st), ["01-website-redesign", "high", "transcript"]);
    s.call("session-start");

    rmSync(s.transcript);
    s.call("pre-compact", { trigger: "auto" });
    for (const st of s.states()) assert.deepEqual(pick(st), ["01-website-redesign", "high", "cache"]);
    // The detail is in the per-session copy (the flat file stays under 1 KB, design_gaps.test.ts).
    const [session] = s.states();
    assert.equal(session.transcript_bytes_scanned, 0);
    assert.equal(session.delivered, null, "a new compaction is not delivered yet");
    assert.ok((session.working_set as unknown[]).length > 0, "the working set of the better save is kept");
    const text = context(s.call("session-start"));
    assert.match(text, /<nexus-context version="v4" mode="compact" project="01-website-redesign"/);
  });

  test("a readable transcript that names no project does not replace a project found before", () => {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    s.call("pre-compact");
    const chat = [
      {
        type: "user",
        sessionId: s.sessionId,
        cwd: s.project,
        uuid: "c1",
        parentUuid: null,
        timestamp: "2026-11-21T12:00:00.000Z",
        message: { role: "user", content: "How are you today?" },
      },
      {
        type: "assistant",
        sessionId: s.sessionId,
        cwd: s.project,
        uuid: "c2",
        parentUuid: "c1",
        timestamp: "2026-11-21T12:00:01.000Z",
        message: { role: "assistant", content: [{ type: "text", text: "Fine, thanks." }] },
      },
    ];
    writeFileSync(s.transcript, chat.map((r) => JSON.stringify(r)).join("\n") + "\n");
    s.call("pre-compact");
    for (const st of s.states()) assert.deepEqual(pick(st), ["01-website-redesign", "high", "cache"]);
    assert.ok((s.states()[0].transcript_bytes_scanned as number) > 0);
  });

  test("without a transcript or a previous state, the newest manifest is recorded with low confidence (fallback)", () => {
    const s = workspace("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d");
    const manifest = join(s.project, "02-projects", "02-api-migration", "01-planning", "resume-context.md");
    const later = new Date(Date.now() + 60_000);
    utimesSync(manifest, later, later);
    const out = s.call("pre-compact");
    assert.equal(out, "", "a guess gives the summarizer nothing to preserve");
    for (const st of s.states()) assert.deepEqual(pick(st), ["02-api-migration", "low", "fallback"]);
    const text = context(s.call("session-start"));
    assert.match(text, /<resume-status reason="low-confidence">/, "a low guess does not resume a project by default");
  });
});

describe("a medium-confidence resume asks to verify the project (issue #26)", () => {
  function resumeWith(confidence: "high" | "medium"): string {
    const s = workspace();
    const flat = join(s.project, "00-system", ".cache");
    mkdirSync(flat, { recursive: true });
    writeFileSync(
      join(flat, "precompact_state.json"),
      JSON.stringify({
        schema_version: 1,
        active_project_id: "02-api-migration",
        confidence,
        detection_method: "transcript",
        timestamp: "2026-11-21T10:00:00.000Z",
        session_id: s.sessionId,
        compaction_id: "c-1",
        delivered: null,
      }),
    );
    return context(s.call("session-start"));
  }

  test("medium: one line inside <nexus-context> says the detection is uncertain", () => {
    const text = resumeWith("medium");
    assert.match(text, /mode="compact" project="02-api-migration"/);
    const instruction = text.slice(text.lastIndexOf("<instruction>"));
    assert.match(
      instruction,
      /detected with medium confidence only: if it does not match what the user was working on, verify the project with the user/,
    );
    assert.ok(text.length <= 9500, `${text.length} characters`);
  });

  test("high: no such line", () => {
    const text = resumeWith("high");
    assert.match(text, /mode="compact" project="02-api-migration"/);
    assert.doesNotMatch(text, /verify the project with the user/);
  });
});

describe("a handler re-reads handler-state.md by default (issue #26)", () => {
  const SID = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
  const handlerSkill = { tool_name: "Skill", tool_input: { skill: "handler" }, tool_response: { success: true } };
  const bash = { tool_name: "Bash", tool_input: { command: "git status" } };

  function handler(
    prepare: (project: string, tmp: string) => void,
  ): { reason: string; start: string; project: string } {
    const tmp = mkdtempSync(join(tmpdir(), "rehydrate-gaps-"));
    const project = join(tmp, "project");
    cpSync(join(ROOT, "tests", "fixtures", "dispatch", "project"), project, { recursive: true });
    // No dispatch.handlerStateFile: the default is what is tested.
    writeFileSync(join(project, ".claude", "rehydrate.json"), "{}\n");
    prepare(project, tmp);
    const s = sandbox(tmp, project, SID);
    s.call("post-tool-use", handlerSkill);
    s.call("pre-compact", { transcript_path: "" });
    const start = context(s.call("session-start", { transcript_path: "" }));
    const denied = JSON.parse(s.call("pre-tool-use", { ...bash, transcript_path: "" }));
    assert.equal(denied.hookSpecificOutput.permissionDecision, "deny");
    return { reason: denied.hookSpecificOutput.permissionDecisionReason, start, project };
  }

  test("handler-state.md in the project directory is re-read without dispatch.handlerStateFile", () => {
    const { reason, start, project } = handler(() => {});
    assert.ok(reason.includes(join(project, "handler-state.md")), reason);
    assert.ok(reason.includes(join(project, "docs", "handler-dispatches", "fix-login.md")), reason);
    assert.match(start, /handler-state\.md/);
  });

  test("a handler-state.md that links out of the project is refused", () => {
    const { reason, start } = handler((project, tmp) => {
      const outside = join(tmp, "outside-state.md");
      writeFileSync(outside, "# Elsewhere\n");
      rmSync(join(project, "handler-state.md"));
      symlinkSync(outside, join(project, "handler-state.md"));
    });
    assert.doesNotMatch(reason, /handler-state\.md|outside-state/);
    assert.doesNotMatch(start, /handler-state\.md|outside-state/);
    assert.match(reason, /fix-login\.md/, "the dispatch files are still re-read");
  });
});
