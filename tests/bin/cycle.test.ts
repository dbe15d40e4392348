// The compaction cycle against the compiled binaries, as Claude Code drives it: captured hook
// payloads rewritten to a copy of examples/workspace, one transcript, one state directory. Every
// file the hooks write is checked against its schema and its permissions.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { SaxesParser } from "saxes";
import { bin, FIXTURES, ROOT, run } from "./_bin.ts";
import { writeDemoTranscript } from "../../examples/demo_transcript.ts";
import { validateSchema } from "../../lib/schema/validate_schema.ts";
import { type SchemaName, SCHEMAS } from "../../lib/cli/_schemas.ts";

interface Cycle {
  ids: { session_id: string; transcript_path: string; cwd: string };
  project: string;
  state: string;
  env: Record<string, string | undefined>;
  hook(name: string, event: string, extra?: Record<string, unknown>): { status: number | null; stdout: string };
  /** The same through the multicall binary: `rehydrate <name>`. */
  multicall(name: string, event: string, extra?: Record<string, unknown>): { status: number | null; stdout: string };
}

function payload(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", file), "utf8"));
}

const TEMPLATE: Record<string, string> = {
  PreCompact: "PreCompact-manual.json",
  SessionStart: "SessionStart-compact.json",
  UserPromptSubmit: "UserPromptSubmit.json",
  PreToolUse: "PreToolUse-Read.json",
  PostToolUse: "PostToolUse-Read.json",
  Stop: "Stop.json",
  PostCompact: "PostCompact-manual.json",
};

function cycle(options: { enforce?: boolean } = {}): Cycle {
  const tmp = mkdtempSync(join(tmpdir(), "rehydrate-cycle-"));
  const project = join(tmp, "workspace");
  cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  writeFileSync(
    join(project, ".claude", "rehydrate.json"),
    JSON.stringify({ reread: { enforce: options.enforce ?? true } }),
  );
  const home = join(tmp, "home");
  mkdirSync(home);
  const sessionId = "0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d";
  const transcript = join(tmp, `${sessionId}.jsonl`);
  writeDemoTranscript(transcript, { projectDir: project, sessionId });
  const state = join(tmp, "state");
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project, REHYDRATE_STATE_DIR: state };
  // dist/<name>, or with `multi` the multicall binary: `rehydrate <name>`.
  const invoke = (name: string, event: string, extra: Record<string, unknown>, multi: boolean) => {
    const input = {
      ...payload(TEMPLATE[event]),
      session_id: sessionId,
      transcript_path: transcript,
      cwd: project,
      ...extra,
    };
    const [path, args] = multi ? [bin("rehydrate"), [name]] : [bin(name), []];
    const r = run(path, args, { stdin: JSON.stringify(input), env, cwd: project });
    return { status: r.status, stdout: r.stdout };
  };
  return {
    ids: { session_id: sessionId, transcript_path: transcript, cwd: project },
    project,
    state,
    env,
    hook: (name, event, extra = {}) => invoke(name, event, extra, false),
    multicall: (name, event, extra = {}) => invoke(name, event, extra, true),
  };
}

function runAsync(path: string, stdin: string, env: Record<string, string | undefined>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, [], { env: env as NodeJS.ProcessEnv });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("close", () => resolve(out));
    child.stdin.end(stdin);
  });
}

/** Appends the row Claude Code writes for a hook's additionalContext (docs: the transcript format). */
function recordDelivered(c: Cycle, text: string, event: string): void {
  const row = {
    type: "attachment",
    uuid: `att-${event}`,
    parentUuid: null,
    isSidechain: false,
    sessionId: c.ids.session_id,
    attachment: { type: "hook_additional_context", hookName: event, hookEvent: event, content: [text] },
  };
  const path = c.ids.transcript_path;
  writeFileSync(path, readFileSync(path, "utf8") + JSON.stringify(row) + "\n");
}

function additionalContext(stdout: string, event: string): string {
  const reply = JSON.parse(stdout);
  assert.equal(reply.hookSpecificOutput.hookEventName, event);
  return reply.hookSpecificOutput.additionalContext;
}

function parsesAsXml(text: string): void {
  const parser = new SaxesParser();
  let error: Error | null = null;
  parser.on("error", (e) => {
    error ??= e;
  });
  parser.write(`<root>${text}</root>`).close();
  assert.equal(error, null, `not well-formed XML: ${error}`);
}

function schemaFor(rel: string): SchemaName | null {
  if (rel.endsWith("precompact_state.json") || rel.endsWith(".precompact.json")) return "precompact_state";
  if (rel.startsWith("markers/")) return "reread_marker";
  if (rel.startsWith("compactions/") && rel.endsWith(".json")) return "compaction_record";
  if (rel.endsWith(".role.json")) return "session_role";
  if (rel.startsWith("sessions/") && rel.endsWith(".snapshot.json")) return "session_snapshot";
  if (rel.startsWith("sessions/") && rel.endsWith(".json")) return "session_record";
  return null;
}

function checkWrittenFiles(c: Cycle): number {
  let checked = 0;
  const walk = (dir: string): void => {
    if (process.platform !== "win32") assert.equal(statSync(dir).mode & 0o077, 0, `${dir} is open to others`);
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        walk(p);
        continue;
      }
      if (process.platform !== "win32") assert.equal(statSync(p).mode & 0o077, 0, `${p} is open to others`);
      const schema = schemaFor(relative(c.state, p).replaceAll("\\", "/"));
      if (schema === null) continue;
      assert.deepEqual(
        validateSchema(SCHEMAS[schema], JSON.parse(readFileSync(p, "utf8"))),
        [],
        `${relative(c.state, p)} vs ${schema}`,
      );
      checked++;
    }
  };
  walk(c.state);
  const flat = join(c.project, "00-system", ".cache", "precompact_state.json");
  assert.deepEqual(validateSchema(SCHEMAS.precompact_state, JSON.parse(readFileSync(flat, "utf8"))), []);
  return checked + 1;
}

describe("the compaction cycle on the compiled binaries", () => {
  test("PreCompact saves the active project and prints plain-text summarizer instructions", () => {
    const c = cycle();
    const r = c.hook("pre-compact", "PreCompact");
    assert.equal(r.status, 0);
    assert.doesNotMatch(r.stdout.trim(), /^\{/, "PreCompact must never print JSON");
    assert.match(r.stdout, /01-website-redesign/);
    assert.match(r.stdout, /Server-render the pricing table/);
    // The everyday layer's lines first, then the project's; 2,500 characters at most in all.
    assert.match(r.stdout, /^rehydrate, to the summarizer of this conversation/);
    assert.ok(r.stdout.length <= 2500 + 1, `${r.stdout.length} characters`);
    const flat = JSON.parse(readFileSync(join(c.project, "00-system", ".cache", "precompact_state.json"), "utf8"));
    assert.equal(flat.active_project_id, "01-website-redesign");
    assert.equal(flat.confidence, "high");
    assert.ok(checkWrittenFiles(c) >= 4, "state copy, compaction record, marker and flat state");
  });

  test("`rehydrate pre-compact` loads the workflows' own bundle as dist/pre-compact does", () => {
    // hooks/pre-compact.ts loads the projects, orchestration and dispatch code by a computed name,
    // only when a layout asks for it: from the multicall binary as from the hook binary.
    const [a, b] = [cycle(), cycle()];
    const single = a.hook("pre-compact", "PreCompact");
    const multi = b.multicall("pre-compact", "PreCompact");
    assert.equal(multi.status, 0);
    assert.match(multi.stdout, /01-website-redesign/);
    // Each cycle's state directory draws its own session mark (issue #36, I4).
    const same = (out: string, project: string) =>
      out.replaceAll(project, "<p>").replace(/mark="[0-9a-f]{16}"/, 'mark="…"');
    assert.equal(same(multi.stdout, b.project), same(single.stdout, a.project));
    const flat = JSON.parse(readFileSync(join(b.project, "00-system", ".cache", "precompact_state.json"), "utf8"));
    assert.equal(flat.active_project_id, "01-website-redesign");
  });

  test("SessionStart(compact) re-injects the project once; a repeat and a resume inject nothing", () => {
    const c = cycle();
    c.hook("pre-compact", "PreCompact");
    const first = c.hook("session-start", "SessionStart", { source: "compact" });
    assert.equal(first.status, 0);
    const ctx = additionalContext(first.stdout, "SessionStart");
    assert.ok(ctx.length <= 9500, `${ctx.length} characters`);
    assert.match(ctx, /<nexus-context version="v4" mode="compact"/);
    assert.match(ctx, /<current-task>Server-render the pricing table from pricing.json<\/current-task>/);
    parsesAsXml(ctx);
    assert.match(ctx, /<file path="00-system\/core\/orchestrator.md">/, "the full form quotes files");
    assert.equal(c.hook("session-start", "SessionStart", { source: "compact" }).stdout, "");
    // Nothing re-delivered. (The demo transcript has no compact boundary, so its last usage row,
    // 67 % of the window, still counts: the everyday fill warning may say so, in one line.)
    assert.match(
      c.hook("user-prompt-submit", "UserPromptSubmit").stdout,
      /^(|\{.*"additionalContext":"<context-fill [^<]*<\/context-fill>"\}\})$/,
    );
    // Claude Code records the delivered context in the transcript and replays it on resume; the
    // resume injection rule (docs/projects.md) then adds nothing.
    recordDelivered(c, ctx, "SessionStart");
    assert.equal(c.hook("session-start", "SessionStart", { source: "resume" }).stdout, "");
    checkWrittenFiles(c);
  });

  test("SessionStart(compact) still answers when PreCompact left nothing (it failed or was not installed)", () => {
    const c = cycle();
    const ctx = additionalContext(
      c.hook("session-start", "SessionStart", { source: "compact" }).stdout,
      "SessionStart",
    );
    assert.match(ctx, /<action>continue_working<\/action>/);
    assert.match(ctx, /<resume-status reason="no-state"/);
    parsesAsXml(ctx);
  });

  test("two SessionStart(compact) hooks at once (rehydrate installed twice): exactly one injects", async () => {
    for (let trial = 0; trial < 5; trial++) {
      const c = cycle();
      c.hook("pre-compact", "PreCompact");
      const input = JSON.stringify({ ...payload("SessionStart-compact.json"), ...c.ids });
      const outs = await Promise.all([0, 1, 2].map(() => runAsync(bin("session-start"), input, c.env)));
      const delivered = outs.filter((o) => o.includes("nexus-context"));
      assert.equal(delivered.length, 1, `trial ${trial}: ${outs.map((o) => o.length).join(", ")}`);
    }
  });

  test("when SessionStart's output never arrives, the next prompt delivers a short form, once", () => {
    const c = cycle();
    c.hook("pre-compact", "PreCompact");
    const first = c.hook("user-prompt-submit", "UserPromptSubmit");
    assert.equal(first.status, 0);
    const ctx = additionalContext(first.stdout, "UserPromptSubmit");
    assert.match(ctx, /<nexus-context version="v4" mode="compact"/);
    assert.match(ctx, /01-website-redesign/);
    assert.ok(ctx.length <= 4000, `${ctx.length} characters`);
    parsesAsXml(ctx);
    // Once: nothing re-delivered (the everyday fill warning may speak, as above).
    assert.match(
      c.hook("user-prompt-submit", "UserPromptSubmit").stdout,
      /^(|\{.*"additionalContext":"<context-fill [^<]*<\/context-fill>"\}\})$/,
    );
    recordDelivered(c, ctx, "UserPromptSubmit");
    assert.equal(c.hook("session-start", "SessionStart", { source: "resume" }).stdout, "");
  });

  test("the first tool call after compaction is denied once with the files to re-read; Stop is then silent", () => {
    const c = cycle();
    c.hook("pre-compact", "PreCompact");
    c.hook("session-start", "SessionStart", { source: "compact" });
    const denied = c.hook("pre-tool-use", "PreToolUse", { tool_name: "Bash", tool_input: { command: "npm test" } });
    const reply = JSON.parse(denied.stdout);
    assert.equal(reply.hookSpecificOutput.permissionDecision, "deny");
    assert.match(reply.hookSpecificOutput.permissionDecisionReason, /01-planning\/04-steps\.md/);
    assert.equal(
      c.hook("pre-tool-use", "PreToolUse", { tool_name: "Bash", tool_input: { command: "npm test" } }).stdout,
      "",
    );
    assert.equal(c.hook("stop", "Stop", { stop_hook_active: false }).stdout, "");
  });

  test("with nothing read after compaction, Stop blocks once, and never while stop_hook_active", () => {
    const c = cycle();
    c.hook("pre-compact", "PreCompact");
    assert.equal(c.hook("stop", "Stop", { stop_hook_active: true }).stdout, "");
    const blocked = JSON.parse(c.hook("stop", "Stop", { stop_hook_active: false }).stdout);
    assert.equal(blocked.decision, "block");
    assert.match(blocked.reason, /resume-context\.md/);
    assert.equal(c.hook("stop", "Stop", { stop_hook_active: false }).stdout, "");
  });

  test("with re-read enforcement off for projects, no tool call is denied", () => {
    const c = cycle({ enforce: false });
    c.hook("pre-compact", "PreCompact");
    assert.equal(c.hook("pre-tool-use", "PreToolUse", { tool_name: "Bash", tool_input: { command: "ls" } }).stdout, "");
    assert.equal(c.hook("stop", "Stop", { stop_hook_active: false }).stdout, "");
  });

  test("a session outside any known layout gets no output from any hook", () => {
    const c = cycle();
    const plain = mkdtempSync(join(tmpdir(), "rehydrate-plain-"));
    const env = { ...c.env, CLAUDE_PROJECT_DIR: plain };
    for (
      const [name, event, extra] of [
        ["pre-compact", "PreCompact", {}],
        ["session-start", "SessionStart", { source: "compact" }],
        ["user-prompt-submit", "UserPromptSubmit", {}],
        ["pre-tool-use", "PreToolUse", {}],
        ["post-tool-use", "PostToolUse", {}],
        ["stop", "Stop", { stop_hook_active: false }],
        ["post-compact", "PostCompact", {}],
      ] as const
    ) {
      const input = { ...payload(TEMPLATE[event]), cwd: plain, ...extra };
      const r = run(bin(name), [], { stdin: JSON.stringify(input), env, cwd: plain });
      assert.equal(r.status, 0, name);
      assert.equal(r.stdout, "", name);
    }
  });
});
