// What issue #26 still found missing against the design of the project workspaces, checked on the
// compiled binaries: the design's hand-written state and minimal _resume.md are read as legacy
// input (validate says "legacy", migrate upgrades them), the flat state file stays under 1 KB,
// a compact resume names the manifest first and quotes its validation gate right after the
// project line, the startup menu carries the onboarding state, the routing rules keep their
// never-do and always-do rules and importance, and a resume injects the workspace's context
// exactly when the replayed transcript lacks one.
//
// REHYDRATE_TEST_DIST runs the same scenarios against another build (f2fa902's dist/ fails them).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, EXE, FIXTURES, ROOT, run } from "./_bin.ts";
import { writeDemoTranscript } from "../../examples/demo_transcript.ts";

const OTHER_DIST = process.env.REHYDRATE_TEST_DIST;

function exe(name: string): string {
  return OTHER_DIST ? join(OTHER_DIST, name + EXE) : bin(name);
}

function payload(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", file), "utf8"));
}

const TEMPLATE: Record<string, string> = {
  "pre-compact": "PreCompact-manual.json",
  "session-start": "SessionStart-compact.json",
};

interface Sandbox {
  tmp: string;
  project: string;
  sessionId: string;
  transcript: string;
  env: Record<string, string | undefined>;
  call(hook: string, extra?: Record<string, unknown>): string;
  cli(args: string[]): { status: number | null; stdout: string };
}

function workspace(sessionId = "6d7e8f90-a1b2-4c3d-8e4f-5a6b7c8d9e0f"): Sandbox {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-design-"));
  const project = join(tmp, "workspace");
  cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  const home = join(tmp, "home");
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(tmp, "state"),
  };
  const transcript = join(tmp, `${sessionId}.jsonl`);
  return {
    tmp,
    project,
    sessionId,
    transcript,
    env,
    call(hook, extra = {}) {
      const input = {
        ...payload(TEMPLATE[hook]),
        session_id: sessionId,
        transcript_path: transcript,
        cwd: project,
        ...extra,
      };
      const r = run(exe(hook), [], { stdin: JSON.stringify(input), env, cwd: project });
      assert.equal(r.status, 0, `${hook}: exit ${r.status} ${r.stderr}`);
      return r.stdout;
    },
    cli(args) {
      const r = run(exe("rehydrate"), args, { env, cwd: project });
      return { status: r.status, stdout: r.stdout };
    },
  };
}

function context(stdout: string): string {
  assert.notEqual(stdout, "", "SessionStart printed nothing");
  return JSON.parse(stdout).hookSpecificOutput.additionalContext;
}

/** The design's own flat state (001_..., "precompact_state.json Schema (FLAT)"): no session, no offset. */
const DESIGN_STATE = {
  active_project_id: "01-website-redesign",
  confidence: "high",
  detection_method: "transcript",
  timestamp: "2026-01-03T14:00:00",
};
/** The design's minimal hand-written _resume.md (000_..., parse_resume_yaml): files and next action only. */
const MINIMAL_RESUME = "---\nfiles_to_load:\n  - 01-planning/steps.md\nnext_action: execute-project\n---\n";
const LEGACY = join("02-projects", "03-legacy-notes", "01-planning");

describe("legacy hand-written input is accepted (issue #26)", () => {
  test("rehydrate validate says legacy for the design's flat state and a minimal _resume.md, and exits 0", () => {
    const s = workspace();
    const state = join(s.tmp, "precompact_state.json");
    writeFileSync(state, JSON.stringify(DESIGN_STATE, null, 2));
    writeFileSync(join(s.project, LEGACY, "_resume.md"), MINIMAL_RESUME);
    const r = s.cli(["validate", state, join(s.project, LEGACY, "_resume.md")]);
    assert.equal(r.status, 0, r.stdout);
    assert.match(r.stdout, /precompact_state\.json: legacy \(precompact_state\): [^\n]*no UTC offset/);
    assert.match(r.stdout, /_resume\.md: legacy \(manifest\): [^\n]*project_id from the folder name/);
  });

  test("rehydrate migrate --apply upgrades both to the strict form, keeping the old files as .bak", () => {
    const s = workspace();
    const cache = join(s.project, "00-system", ".cache");
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, "precompact_state.json"), JSON.stringify(DESIGN_STATE, null, 2));
    writeFileSync(join(s.project, LEGACY, "_resume.md"), MINIMAL_RESUME);
    const r = s.cli(["migrate", "--apply"]);
    assert.equal(r.status, 0, r.stdout);
    assert.ok(existsSync(join(s.project, LEGACY, "_resume.md.bak")));
    assert.ok(existsSync(join(cache, "precompact_state.json.bak")));
    const manifest = readFileSync(join(s.project, LEGACY, "resume-context.md"), "utf8");
    assert.ok(manifest.startsWith("---\nfiles_to_load:\n  - 01-planning/steps.md\nnext_action: execute-project\n"));
    assert.match(manifest, /project_id: "03-legacy-notes"/);
    const upgraded = JSON.parse(readFileSync(join(cache, "precompact_state.json"), "utf8"));
    assert.equal(upgraded.active_project_id, "01-website-redesign");
    assert.match(upgraded.timestamp, /Z$/);
    const check = s.cli([
      "validate",
      join(s.project, LEGACY, "resume-context.md"),
      join(cache, "precompact_state.json"),
    ]);
    assert.equal(check.status, 0, check.stdout);
    assert.match(check.stdout, /resume-context\.md: ok \(manifest\)/);
    assert.match(check.stdout, /precompact_state\.json: ok \(precompact_state\)/);
  });

  test("SessionStart resumes a project whose manifest is a minimal _resume.md, from a state without an offset", () => {
    const s = workspace();
    writeFileSync(join(s.project, LEGACY, "_resume.md"), MINIMAL_RESUME);
    const cache = join(s.project, "00-system", ".cache");
    mkdirSync(cache, { recursive: true });
    writeFileSync(
      join(cache, "precompact_state.json"),
      JSON.stringify({ ...DESIGN_STATE, active_project_id: "03-legacy-notes", session_id: s.sessionId }),
    );
    const text = context(s.call("session-start"));
    assert.match(text, /<nexus-context version="v4" mode="compact" project="03-legacy-notes"/);
    assert.doesNotMatch(text, /resume-status/);
  });
});

describe("the flat state file stays under 1 KB (issue #26)", () => {
  test("the detail goes to the per-session copy", () => {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    s.call("pre-compact");
    const flatPath = join(s.project, "00-system", ".cache", "precompact_state.json");
    assert.ok(statSync(flatPath).size < 1024, `${statSync(flatPath).size} bytes`);
    const flat = JSON.parse(readFileSync(flatPath, "utf8"));
    assert.equal(flat.active_project_id, "01-website-redesign");
    assert.equal(flat.session_id, s.sessionId);
    const session = JSON.parse(
      readFileSync(join(s.env.REHYDRATE_STATE_DIR!, "sessions", `${s.sessionId}.precompact.json`), "utf8"),
    );
    assert.ok(session.working_set.length > 0 && session.last_tool_calls.length > 0);
  });
});

describe("a compact resume reads the manifest first and gets its validation gate (issue #26)", () => {
  function compact(): string {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    s.call("pre-compact");
    return context(s.call("session-start"));
  }
  const MANIFEST = "02-projects/01-website-redesign/01-planning/resume-context.md";

  test("the manifest body's gate comes right after the project line, within the budget", () => {
    const text = compact();
    const m = /<\/resume-project>\n<validation-gate path="([^"]+)">\n([\s\S]*?)\n<\/validation-gate>/.exec(text);
    assert.ok(m, text);
    assert.equal(m[1], MANIFEST);
    assert.match(m[2], /Before continuing, make sure you can answer:/);
    assert.match(m[2], /1\. What problem are we solving\? \(01-overview\.md\)/);
    assert.ok(text.length <= 9500, `${text.length} characters`);
    assert.match(text, /\d\. Make sure you can answer the questions of &lt;validation-gate&gt;/);
  });

  test("the manifest is the first file, to read first, and step 1 of the instruction", () => {
    const text = compact();
    assert.match(
      text,
      new RegExp(`<project-files project-id="01-website-redesign">\\n<file path="${MANIFEST}" action="read-first"/>`),
    );
    const instruction = text.slice(text.lastIndexOf("<instruction>"));
    assert.match(instruction, new RegExp(`\\n1\\. Read ${MANIFEST} first`));
    assert.doesNotMatch(text, new RegExp(`<file path="${MANIFEST}" action="read-if-needed"/>`));
  });
});

describe("the startup menu carries onboarding and the full routing rules (issue #26)", () => {
  function startup(prepare: (project: string) => void = () => {}): string {
    const s = workspace();
    prepare(s.project);
    return context(s.call("session-start", { source: "startup" }));
  }

  test("an unfinished learning skill: state flags, routing rule 1, a suggestion and the instruction's priority", () => {
    const text = startup();
    assert.match(text, /<onboarding-complete>false<\/onboarding-complete>/);
    assert.match(
      text,
      /<pending-onboarding><item action="read 00-system\/skills\/learning\/learn-nexus\/SKILL.md">learn-nexus \(15 min\)<\/item><\/pending-onboarding>/,
    );
    assert.match(text, /<rule priority="1">Onboarding incomplete/);
    assert.match(
      text,
      /<action priority="\d" condition="onboarding_incomplete">Complete onboarding: "learn-nexus" \(15 min\)<\/action>/,
    );
    assert.match(text.slice(text.lastIndexOf("<instruction>")), /completing the onboarding/);
  });

  test("learning_tracker in 01-memory/user-config.yaml marks it complete", () => {
    const text = startup((project) =>
      writeFileSync(
        join(project, "01-memory", "user-config.yaml"),
        "learning_tracker:\n  completed:\n    learn_nexus: true\n",
      )
    );
    assert.match(text, /<onboarding-complete>true<\/onboarding-complete>/);
    assert.doesNotMatch(text, /pending-onboarding|onboarding_incomplete|completing the onboarding/);
  });

  test("never-do, always-do, importance and seven routing rules, within the budget", () => {
    const text = startup();
    assert.match(text, /<core-routing importance="CRITICAL">/);
    assert.match(text, /<never-do importance="CRITICAL">(<rule>Never [^<]+<\/rule>){6}<\/never-do>/);
    assert.match(text, /<always-do importance="CRITICAL">(<rule>[^<]+<\/rule>){3}<\/always-do>/);
    assert.match(text, /<rule priority="7">/);
    assert.match(text, /<skill name="mental-models" priority="MEDIUM">[^<]*<proactive-suggest>/);
    assert.ok(text.length <= 9500, `${text.length} characters`);
  });

  test("the planning instruction brings in mental models", () => {
    const s = workspace();
    const cache = join(s.project, "00-system", ".cache");
    mkdirSync(cache, { recursive: true });
    writeFileSync(
      join(cache, "precompact_state.json"),
      JSON.stringify({
        schema_version: 1,
        active_project_id: "02-api-migration",
        confidence: "high",
        detection_method: "transcript",
        timestamp: "2026-11-21T10:00:00.000Z",
        session_id: s.sessionId,
        compaction_id: "c-1",
      }),
    );
    const text = context(s.call("session-start"));
    assert.match(text, /mode="compact" project="02-api-migration" phase="planning"/);
    assert.match(text.slice(text.lastIndexOf("<instruction>")), /mental models/);
  });
});

describe("resume injects when the replayed transcript lacks the workspace context (issue #26)", () => {
  function attachment(text: string): string {
    return JSON.stringify({
      type: "attachment",
      uuid: "a-1",
      parentUuid: null,
      isSidechain: false,
      attachment: {
        type: "hook_additional_context",
        hookName: "SessionStart",
        hookEvent: "SessionStart",
        content: [text],
      },
    }) + "\n";
  }

  test("a resumed session that never compacted and never got the context gets the startup menu", () => {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    const text = context(s.call("session-start", { source: "resume" }));
    assert.match(text, /<nexus-context version="v4" mode="startup">/);
    assert.match(text, /<action>display_menu<\/action>/);
  });

  test("a replayed transcript that holds our context gets nothing", () => {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    const first = context(s.call("session-start", { source: "startup" }));
    writeFileSync(s.transcript, readFileSync(s.transcript, "utf8") + attachment(first));
    assert.equal(s.call("session-start", { source: "resume" }), "");
  });

  test("a compaction delivered before the replayed part (the context is not in it) gets the full resume, not a reminder", () => {
    const s = workspace();
    writeDemoTranscript(s.transcript, { projectDir: s.project, sessionId: s.sessionId });
    s.call("pre-compact");
    const delivered = context(s.call("session-start"));
    const boundary = JSON.stringify({
      type: "system",
      subtype: "compact_boundary",
      uuid: "b-1",
      parentUuid: null,
      isSidechain: false,
      content: "Conversation compacted",
    }) + "\n";
    // Delivered, then a later boundary: the replay starts after it and holds no context.
    writeFileSync(s.transcript, readFileSync(s.transcript, "utf8") + attachment(delivered) + boundary);
    const text = context(s.call("session-start", { source: "resume" }));
    assert.match(text, /<nexus-context version="v4" mode="compact" project="01-website-redesign"/);
    assert.match(text, /<project-files /, "the full context, not the reminder");
  });
});
