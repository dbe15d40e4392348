#!/usr/bin/env bun
/**
 * The demo: a scripted compaction cycle run against the compiled binaries in dist/, on a copy of
 * the sample workspace in examples/workspace. It plays Claude Code's part: writes a transcript of
 * an agent working on one project, then pipes each hook its JSON exactly as the client would
 * (PreCompact → SessionStart(compact) → UserPromptSubmit → PreToolUse → Stop), and prints what each
 * hook received, what it returned and how long the binary took.
 *
 *   npm run demo              build the host binaries, then run this
 *   bun examples/demo.ts      run it against an existing dist/
 *   bun examples/demo.ts --keep   keep the temporary workspace and print its path
 *
 * Nothing outside a fresh temporary directory is touched: HOME and the state directory point there.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeDemoTranscript } from "./demo_transcript.ts";

const ROOT = join(import.meta.dirname!, "..");
const DIST = join(ROOT, "dist");
const EXE = process.platform === "win32" ? ".exe" : "";
const keep = process.argv.includes("--keep");

const tmp = mkdtempSync(join(tmpdir(), "rehydrate-demo-"));
const project = join(tmp, "workspace");
const home = join(tmp, "home");
const state = join(tmp, "state");
cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
mkdirSync(home, { recursive: true });
const sessionId = "4f6d2c1e-9b7a-4e3d-8c21-5a0f9e7b3d10";
const transcriptDir = join(home, ".claude", "projects", project.replace(/[^a-zA-Z0-9]/g, "-"));
mkdirSync(transcriptDir, { recursive: true });
const transcript = join(transcriptDir, `${sessionId}.jsonl`);
writeDemoTranscript(transcript, { projectDir: project, sessionId });

const env = {
  PATH: process.env.PATH ?? "",
  HOME: home,
  CLAUDE_PROJECT_DIR: project,
  REHYDRATE_STATE_DIR: state,
  REHYDRATE_DEBUG: "1",
};
const base = { session_id: sessionId, transcript_path: transcript, cwd: project };

interface Step {
  title: string;
  hook: string;
  input: Record<string, unknown>;
  before?: () => void;
}

const steps: Step[] = [
  {
    title: "1. PreCompact (/compact): save what the agent was working on",
    hook: "pre-compact",
    input: { ...base, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: null },
  },
  {
    title: "2. SessionStart(compact): re-inject the context",
    hook: "session-start",
    input: { ...base, hook_event_name: "SessionStart", source: "compact", model: "claude-opus-4-8" },
  },
  {
    title: "3. UserPromptSubmit: the first prompt after compaction",
    hook: "user-prompt-submit",
    input: { ...base, hook_event_name: "UserPromptSubmit", prompt: "carry on" },
    // Claude Code writes the boundary and the summary after the compaction hooks ran.
    before: () => appendCompaction(transcript, sessionId),
  },
  {
    title: "4. PreToolUse: the agent's first tool call after compaction is denied once",
    hook: "pre-tool-use",
    input: {
      ...base,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test", description: "Run the tests" },
      tool_use_id: "toolu_demo_0001",
    },
  },
  {
    title: "5. PreToolUse: the agent re-reads the steps file; the marker is used up, calls pass",
    hook: "pre-tool-use",
    input: {
      ...base,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(project, "02-projects", "01-website-redesign", "01-planning", "04-steps.md") },
      tool_use_id: "toolu_demo_0002",
    },
  },
  {
    title: "6. Stop: the agent finishes its turn (nothing left to enforce)",
    hook: "stop",
    input: { ...base, hook_event_name: "Stop", stop_hook_active: false },
  },
];

function appendCompaction(path: string, session: string): void {
  const now = new Date().toISOString();
  const boundary = {
    parentUuid: null, logicalParentUuid: "demo-last", isSidechain: false, type: "system", subtype: "compact_boundary",
    content: "Conversation compacted", sessionId: session, timestamp: now, uuid: "demo-boundary", level: "info",
    compactMetadata: { trigger: "manual", preTokens: 151_240, postTokens: 18_400 },
  };
  const summary = {
    parentUuid: "demo-boundary", isSidechain: false, type: "user", isCompactSummary: true, sessionId: session,
    timestamp: now, uuid: "demo-summary",
    message: { role: "user", content: "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nThe user is redesigning the website..." },
  };
  appendFileSync(path, JSON.stringify(boundary) + "\n" + JSON.stringify(summary) + "\n");
}

function show(label: string, text: string, max = 1600): void {
  const body = text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
  console.log(`  ${label}:`);
  for (const line of (body || "(nothing)").split("\n")) console.log(`    ${line}`);
}

function pretty(stdout: string): string {
  const t = stdout.trim();
  if (!t.startsWith("{")) return stdout;
  try {
    const reply = JSON.parse(t);
    const ctx = reply?.hookSpecificOutput?.additionalContext;
    if (typeof ctx === "string") {
      const rest = { ...reply, hookSpecificOutput: { ...reply.hookSpecificOutput, additionalContext: `<${ctx.length} characters, below>` } };
      return `${JSON.stringify(rest, null, 2)}\n--- additionalContext ---\n${ctx}`;
    }
    return JSON.stringify(reply, null, 2);
  } catch {
    return stdout;
  }
}

for (const bin of ["pre-compact", "session-start", "user-prompt-submit", "pre-tool-use", "stop"]) {
  if (!existsSync(join(DIST, bin + EXE))) {
    console.error(`demo: dist/${bin}${EXE} is missing; run "bun build.ts" (or npm run demo) first`);
    process.exit(1);
  }
}

console.log(`rehydrate demo: a compaction cycle on a copy of examples/workspace\n  workspace:  ${project}\n  transcript: ${transcript}\n`);
const timings: Array<[string, number, number]> = [];
for (const step of steps) {
  step.before?.();
  const stdin = JSON.stringify(step.input);
  const started = performance.now();
  const r = spawnSync(join(DIST, step.hook + EXE), [], { input: stdin, env, cwd: project, encoding: "utf8" });
  const ms = performance.now() - started;
  timings.push([step.hook, r.status ?? -1, ms]);
  console.log(`── ${step.title}`);
  show("stdin", JSON.stringify(step.input, null, 2), 800);
  show(`stdout (exit ${r.status}, ${ms.toFixed(1)} ms)`, pretty(r.stdout));
  if (r.stderr) show("stderr", r.stderr);
  console.log("");
}

console.log("── Timings (wall clock, spawn to exit, one run each; see bench/ for real measurements)");
for (const [hook, status, ms] of timings) console.log(`  ${hook.padEnd(20)} exit ${status}  ${ms.toFixed(1).padStart(7)} ms`);
const log = join(state, "debug.log");
if (existsSync(log)) {
  console.log("\n── Debug log (REHYDRATE_DEBUG=1)");
  for (const line of readFileSync(log, "utf8").trimEnd().split("\n")) console.log(`  ${line}`);
}
const flat = join(project, "00-system", ".cache", "precompact_state.json");
if (existsSync(flat)) show("\n── 00-system/.cache/precompact_state.json", readFileSync(flat, "utf8"), 2000);

if (keep) console.log(`\nKept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
if (timings.some(([, status]) => status !== 0 && status !== 2)) process.exitCode = 1;
