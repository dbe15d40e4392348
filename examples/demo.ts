#!/usr/bin/env bun
/**
 * The demo: scripted compaction cycles run against the compiled binaries in dist/, on copies of
 * the samples in examples/: first an ordinary repository (the everyday layer, before and after),
 * then one per workflow. It plays Claude Code's part: writes a transcript, then pipes each hook
 * its JSON exactly as the client would, and prints what each hook received, what it returned and
 * how long the binary took.
 *
 *   npm run demo                      build dist/rehydrate, then run every scenario with it
 *   npx bun examples/demo.ts          run against an existing dist/
 *   npx bun examples/demo.ts everyday one scenario: everyday | project | orchestration | worker
 *   npx bun examples/demo.ts --keep   keep the temporary directories and print their paths
 *   npx bun examples/demo.ts --per-hook
 *                                     run each hook's own binary (dist/<hook>, from `npm run build`)
 *                                     instead of `dist/rehydrate <hook>`
 *
 * By default the demo runs what a release ships and `rehydrate install` registers: the multicall
 * binary, `rehydrate <hook>`. The per-hook binaries are seven more binaries of about its size, each
 * as long to build (docs/architecture.md, "Building").
 *
 * Nothing outside fresh temporary directories is touched: HOME and the state directory point there.
 */
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVERYDAY_REQUEST, EVERYDAY_TASK, writeDemoTranscript, writeEverydayTranscript } from "./demo_transcript.ts";

const ROOT = join(import.meta.dirname!, "..");
// REHYDRATE_TEST_DIST: the same override as the binary tests', to run the demo on a build elsewhere.
const DIST = process.env.REHYDRATE_TEST_DIST || join(ROOT, "dist");
const EXE = process.platform === "win32" ? ".exe" : "";
const args = process.argv.slice(2);
const keep = args.includes("--keep");
const perHook = args.includes("--per-hook");
const only = args.filter((a) => !a.startsWith("--"));

interface Step {
  title: string;
  /** A hook binary name, or `rehydrate <verb>` as an argv. */
  hook: string | string[];
  input?: Record<string, unknown>;
  before?: () => void;
  after?: () => void;
}

interface Sandbox {
  dir: string;
  project: string;
  transcript: string;
  env: Record<string, string>;
  base: { session_id: string; transcript_path: string; cwd: string };
}

const timings: Array<[string, string, number, number]> = [];

function sandbox(sample: string, sessionId: string): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-demo-"));
  const project = join(dir, "workspace");
  cpSync(join(ROOT, "examples", sample), project, { recursive: true });
  const home = join(dir, "home");
  const transcriptDir = join(home, ".claude", "projects", project.replace(/[^a-zA-Z0-9]/g, "-"));
  mkdirSync(transcriptDir, { recursive: true });
  const transcript = join(transcriptDir, `${sessionId}.jsonl`);
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    CLAUDE_PROJECT_DIR: project,
    REHYDRATE_STATE_DIR: join(dir, "state"),
    REHYDRATE_DEBUG: "1",
  };
  return { dir, project, transcript, env, base: { session_id: sessionId, transcript_path: transcript, cwd: project } };
}

/**
 * The summary the demo's compaction writes: like Claude Code's own, it covers the request and the
 * file, and like them it paraphrases what it does not quote.
 */
const DEMO_SUMMARY = [
  "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.",
  "",
  "Summary:",
  "1. Primary Request and Intent: the user reported totals that are off by a cent and asked for a regression test.",
  "2. Files and Code Sections: src/format.js (formatTotal now sums cents), test/format.test.js.",
  "3. All user messages: a report of totals off by a cent; a request for a regression test for 0.1 + 0.2.",
  "4. Pending Tasks: finish the fix in format.js; add the regression test.",
  "5. Current Work: dividing the sum back to euros.",
].join("\n");

function appendCompaction(path: string, session: string): void {
  const now = new Date().toISOString();
  const boundary = {
    parentUuid: null,
    logicalParentUuid: "demo-last",
    isSidechain: false,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    sessionId: session,
    timestamp: now,
    uuid: "demo-boundary",
    level: "info",
    compactMetadata: { trigger: "manual", preTokens: 171_240, postTokens: 18_400 },
  };
  const summary = {
    parentUuid: "demo-boundary",
    isSidechain: false,
    type: "user",
    isCompactSummary: true,
    sessionId: session,
    timestamp: now,
    uuid: "demo-summary",
    message: {
      role: "user",
      content: DEMO_SUMMARY,
    },
  };
  appendFileSync(path, JSON.stringify(boundary) + "\n" + JSON.stringify(summary) + "\n");
}

/** A transcript whose newest assistant row puts `tokens` in the context window. */
function usageTranscript(path: string, session: string, tokens: number, cwd: string): void {
  const row = (i: number) => ({
    parentUuid: null,
    isSidechain: false,
    type: "assistant",
    sessionId: session,
    cwd,
    uuid: `demo-a${i}`,
    timestamp: new Date().toISOString(),
    message: {
      id: `msg_demo_${i}`,
      model: "claude-opus-4-8",
      role: "assistant",
      type: "message",
      content: [{ type: "text", text: "Scoring the gate." }],
      usage: {
        input_tokens: 8,
        cache_creation_input_tokens: 1_992,
        cache_read_input_tokens: tokens - 2_000,
        output_tokens: 300,
      },
    },
  });
  writeFileSync(
    path,
    JSON.stringify({
      type: "user",
      sessionId: session,
      uuid: "demo-u0",
      message: { role: "user", content: "run gate QG-2" },
    }) + "\n" + JSON.stringify(row(1)) + "\n",
  );
}

function show(label: string, text: string, max = 1400): void {
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
      const rest = {
        ...reply,
        hookSpecificOutput: { ...reply.hookSpecificOutput, additionalContext: `<${ctx.length} characters, below>` },
      };
      return `${JSON.stringify(rest, null, 2)}\n--- additionalContext ---\n${ctx}`;
    }
    return JSON.stringify(reply, null, 2);
  } catch {
    return stdout;
  }
}

function brief(input: Record<string, unknown>): string {
  const { session_id: _s, transcript_path: _t, cwd: _c, ...rest } = input;
  return JSON.stringify({ session_id: "…", transcript_path: "…", cwd: "…", ...rest }, null, 2);
}

function scenario(name: string, title: string, box: Sandbox, steps: Step[], intro?: () => void): void {
  console.log(`\n════ ${title}\n  workspace: ${box.project}\n`);
  intro?.();
  for (const step of steps) {
    step.before?.();
    const named = Array.isArray(step.hook) ? step.hook : [step.hook];
    // A hook name runs as `rehydrate <hook>` unless --per-hook asks for dist/<hook>.
    const argv = perHook || named[0] === "rehydrate" ? named : ["rehydrate", ...named];
    const exe = join(DIST, argv[0] + EXE);
    const stdin = step.input ? JSON.stringify(step.input) : "";
    const started = performance.now();
    const r = spawnSync(exe, argv.slice(1), { input: stdin, env: box.env, cwd: box.project, encoding: "utf8" });
    const ms = performance.now() - started;
    timings.push([name, argv.join(" "), r.status ?? -1, ms]);
    console.log(`── ${step.title}`);
    if (step.input) show("stdin", brief(step.input), 700);
    else show("command", argv.join(" "));
    show(`stdout (exit ${r.status}, ${ms.toFixed(1)} ms)`, pretty(r.stdout), 6000);
    if (r.stderr) show("stderr", r.stderr);
    step.after?.();
    console.log("");
  }
  const log = join(box.env.REHYDRATE_STATE_DIR, "debug.log");
  if (existsSync(log)) show("debug log (REHYDRATE_DEBUG=1)", readFileSync(log, "utf8").trimEnd(), 2500);
  if (keep) console.log(`  kept ${box.dir}`);
  else rmSync(box.dir, { recursive: true, force: true });
}

function everydayScenario(): void {
  const box = sandbox("everyday", "3b9e4d2a-7c1f-4e8b-a6d5-2f0c9b8e7a61");
  // A plain git checkout on a branch, and the re-read enforcement switched on for this repository.
  mkdirSync(join(box.project, ".git"));
  writeFileSync(join(box.project, ".git", "HEAD"), "ref: refs/heads/fix/rounding\n");
  mkdirSync(join(box.project, ".claude"));
  writeFileSync(
    join(box.project, ".claude", "rehydrate.json"),
    JSON.stringify({ reread: { enforce: true } }, null, 2) + "\n",
  );
  writeEverydayTranscript(box.transcript, { projectDir: box.project, sessionId: box.base.session_id });
  const format = join(box.project, "src", "format.js");
  const snapshot = join(box.env.REHYDRATE_STATE_DIR, "sessions", `${box.base.session_id}.snapshot.json`);
  const before = () => {
    console.log("── Without rehydrate: the same /compact with no hooks registered");
    show("PreCompact: what the summarizer gets besides Claude Code's own instructions", "(nothing)");
    show("SessionStart(compact): what the model gets besides Claude Code's summary", "(nothing)");
    show(
      "Claude Code re-attaches by itself",
      "up to 5 recently read files (here test/format.test.js, src/format.js, src/parse.js), the plan file, skills, CLAUDE.md",
    );
    show(
      "and leaves to the summary's wording",
      `the open task "${EVERYDAY_TASK}" and its status,\n` +
        `the user's latest request "${EVERYDAY_REQUEST}",\n` +
        'the test command and how it failed ("npm test": not ok 1 - formatTotal adds the prices)',
    );
    console.log(
      "\n── With rehydrate: the everyday layer, on in every repository (this copy turns on reread.enforce)\n",
    );
  };
  scenario(
    "everyday",
    "Ordinary repository (examples/everyday): no workflow layout, one open task, one edited file",
    box,
    [
      {
        title: "PreCompact (/compact): save the session snapshot; instructions for the summarizer",
        hook: "pre-compact",
        input: { ...box.base, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: null },
        after: () =>
          show(
            `<stateDir>/sessions/${box.base.session_id}.snapshot.json (schemas/session_snapshot.v1.json)`,
            existsSync(snapshot) ? JSON.stringify(JSON.parse(readFileSync(snapshot, "utf8")), null, 2) : "(none)",
            2400,
          ),
      },
      {
        title:
          "SessionStart(compact): what summaries lose comes back as one <session-context> (the latest request, the failing test)",
        hook: "session-start",
        input: { ...box.base, hook_event_name: "SessionStart", source: "compact", model: "claude-opus-4-8" },
      },
      {
        title:
          "UserPromptSubmit: the summary is written now; what it left out comes once (a task it paraphrased, a request it did not quote)",
        hook: "user-prompt-submit",
        input: { ...box.base, hook_event_name: "UserPromptSubmit", prompt: "carry on" },
        before: () => {
          appendCompaction(box.transcript, box.base.session_id);
          show("the compaction's summary (the demo's stand-in for Claude Code's)", DEMO_SUMMARY, 1200);
        },
      },
      {
        title: "UserPromptSubmit: both parts delivered, so nothing is injected twice",
        hook: "user-prompt-submit",
        input: { ...box.base, hook_event_name: "UserPromptSubmit", prompt: "and the test?" },
      },
      {
        title: "PreToolUse: the first tool call is denied once (reread.enforce: true), naming the edited file",
        hook: "pre-tool-use",
        input: {
          ...box.base,
          hook_event_name: "PreToolUse",
          tool_name: "Edit",
          tool_input: {
            file_path: format,
            old_string: "return `€${total}`;",
            new_string: "return `€${(total / 100).toFixed(2)}`;",
          },
          tool_use_id: "toolu_demo_0101",
        },
      },
      {
        title: "PreToolUse: the agent re-reads src/format.js; calls pass again",
        hook: "pre-tool-use",
        input: {
          ...box.base,
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: format },
          tool_use_id: "toolu_demo_0102",
        },
      },
    ],
    before,
  );
}

function projectScenario(): void {
  const box = sandbox("workspace", "4f6d2c1e-9b7a-4e3d-8c21-5a0f9e7b3d10");
  writeDemoTranscript(box.transcript, { projectDir: box.project, sessionId: box.base.session_id });
  const steps = join(box.project, "02-projects", "01-website-redesign", "01-planning", "04-steps.md");
  scenario("project", "Project workspace: the agent was working on 02-projects/01-website-redesign", box, [
    {
      title:
        "PreCompact (/compact): save the session snapshot, the active project and its working set; instructions for the summarizer",
      hook: "pre-compact",
      input: { ...box.base, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: null },
      after: () =>
        show(
          "00-system/.cache/precompact_state.json",
          readFileSync(join(box.project, "00-system", ".cache", "precompact_state.json"), "utf8"),
          900,
        ),
    },
    {
      title:
        'SessionStart(compact): the everyday <session-context>, then the project as <nexus-context mode="compact">, in one injection',
      hook: "session-start",
      input: { ...box.base, hook_event_name: "SessionStart", source: "compact", model: "claude-opus-4-8" },
    },
    {
      title: "UserPromptSubmit: already delivered, so nothing is injected twice",
      hook: "user-prompt-submit",
      input: { ...box.base, hook_event_name: "UserPromptSubmit", prompt: "carry on" },
      before: () => appendCompaction(box.transcript, box.base.session_id),
    },
    {
      title: "PreToolUse: the first tool call after compaction is denied once (reread.enforce is on in this sample)",
      hook: "pre-tool-use",
      input: {
        ...box.base,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: "npm test" },
        tool_use_id: "toolu_demo_0001",
      },
    },
    {
      title: "PreToolUse: the agent re-reads the steps file; calls pass again",
      hook: "pre-tool-use",
      input: {
        ...box.base,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: steps },
        tool_use_id: "toolu_demo_0002",
      },
    },
    {
      title: "Stop: nothing left to enforce",
      hook: "stop",
      input: { ...box.base, hook_event_name: "Stop", stop_hook_active: false },
    },
  ]);
}

function orchestrationScenario(): void {
  const box = sandbox("orchestration", "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d");
  usageTranscript(box.transcript, box.base.session_id, 171_000, box.project);
  const checkpoints = join(box.project, ".jerry", "checkpoints");
  const listCheckpoints = () =>
    show(".jerry/checkpoints/", existsSync(checkpoints) ? readdirSync(checkpoints).join("\n") : "(none)");
  scenario(
    "orchestration",
    "Orchestration run: projects/PROJ-001-oss-release/ORCHESTRATION.yaml, context at 85 %",
    box,
    [
      {
        title: "UserPromptSubmit: the context monitor warns (CRITICAL from 80 %)",
        hook: "user-prompt-submit",
        input: { ...box.base, hook_event_name: "UserPromptSubmit", prompt: "score the gate" },
      },
      {
        title: "PreCompact (auto): a checkpoint from the resumption section",
        hook: "pre-compact",
        input: { ...box.base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null },
        after: listCheckpoints,
      },
      {
        title: "SessionStart(compact): the compaction alert",
        hook: "session-start",
        input: { ...box.base, hook_event_name: "SessionStart", source: "compact", model: "claude-opus-4-8" },
      },
      {
        title: "PostCompact: Claude Code's summary is stored with the checkpoint",
        hook: "post-compact",
        input: {
          ...box.base,
          hook_event_name: "PostCompact",
          trigger: "auto",
          compact_summary: "The run is at QG-2 iteration 2; the revision of NOTICE is pending.",
        },
        before: () => appendCompaction(box.transcript, box.base.session_id),
      },
      {
        title: "UserPromptSubmit: until acknowledged, a one-line reminder",
        hook: "user-prompt-submit",
        input: { ...box.base, hook_event_name: "UserPromptSubmit", prompt: "continue" },
      },
      {
        title: "rehydrate ack: the agent (or the user) acknowledges the checkpoint",
        hook: ["rehydrate", "ack", "--project", box.project],
      },
      {
        title: "UserPromptSubmit: acknowledged, nothing more",
        hook: "user-prompt-submit",
        input: { ...box.base, hook_event_name: "UserPromptSubmit", prompt: "continue" },
      },
      {
        title: "rehydrate resume-prompt: what a new session gets (Template 1)",
        hook: ["rehydrate", "resume-prompt", "--project", box.project],
      },
    ],
  );
}

function workerScenario(): void {
  const box = sandbox("worker", "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f");
  const dispatch = join(box.project, "dispatch-task-42.md");
  box.env.REHYDRATE_DISPATCH_FILE = dispatch;
  writeFileSync(box.transcript, "");
  scenario("worker", "Worker session: its dispatch file is named by REHYDRATE_DISPATCH_FILE", box, [
    {
      title: "PreCompact: a one-shot re-read marker for the dispatch file",
      hook: "pre-compact",
      input: { ...box.base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: null },
    },
    {
      title: "SessionStart(compact): a pointer to the dispatch file and its progress",
      hook: "session-start",
      input: { ...box.base, hook_event_name: "SessionStart", source: "compact", model: "claude-opus-4-8" },
    },
    {
      title: "PreToolUse: the first tool call is denied once, naming the dispatch file",
      hook: "pre-tool-use",
      input: {
        ...box.base,
        hook_event_name: "PreToolUse",
        tool_name: "Edit",
        tool_input: { file_path: join(box.project, "src", "api", "middleware.ts") },
        tool_use_id: "toolu_w1",
      },
    },
    {
      title: "PreToolUse: the Read of the dispatch file passes",
      hook: "pre-tool-use",
      input: {
        ...box.base,
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: dispatch },
        tool_use_id: "toolu_w2",
      },
    },
  ]);
}

const PER_HOOK = ["pre-compact", "session-start", "user-prompt-submit", "pre-tool-use", "post-compact", "stop"];
for (const bin of [...(perHook ? PER_HOOK : []), "rehydrate"]) {
  if (!existsSync(join(DIST, bin + EXE))) {
    const build = perHook ? "npm run build" : "npm run demo, or npx bun build.ts --only rehydrate";
    console.error(`demo: dist/${bin}${EXE} is missing; run ${build} first`);
    process.exit(1);
  }
}

const SCENARIOS: Record<string, () => void> = {
  everyday: everydayScenario,
  project: projectScenario,
  orchestration: orchestrationScenario,
  worker: workerScenario,
};
for (const name of only) {
  if (!SCENARIOS[name]) {
    console.error(`demo: unknown scenario "${name}"; known: ${Object.keys(SCENARIOS).join(", ")}`);
    process.exit(1);
  }
}
console.log("rehydrate demo: scripted compaction cycles against the compiled binaries in dist/");
for (const [name, run] of Object.entries(SCENARIOS)) if (only.length === 0 || only.includes(name)) run();

console.log("\n════ Timings (wall clock, spawn to exit, one run each; bench/ has the real measurements)");
for (const [name, what, status, ms] of timings) {
  console.log(`  ${name.padEnd(14)} ${what.padEnd(30).slice(0, 40)} exit ${status}  ${ms.toFixed(1).padStart(7)} ms`);
}
if (timings.some(([, , status]) => status !== 0)) process.exitCode = 1;
