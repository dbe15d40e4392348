// Issue #22, rule 1 ("who may say what"), on the compiled binaries: a cloned repository's
// .claude/rehydrate.json is the attacker's. Each finding is replayed as Claude Code would run the
// hooks, in a fake HOME holding canary files (a token in ~/tok, ~/notes.md, ~/.npmrc); no canary may
// reach a hook's output, stderr, a file rehydrate writes or the debug log, and `rehydrate doctor`
// must name every key the project's file was not allowed to set.
//
// TRUST_CONFIG_DIST=<dir> runs the same tests against other binaries (how they were shown to fail
// on the code before the rule: SECURITY.md, "Configuration").
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, EXE, FIXTURES, ROOT } from "./_bin.ts";

const DIST = process.env.TRUST_CONFIG_DIST;
const exe = (name: string): string => (DIST ? join(DIST, name + EXE) : bin(name));
const posix = process.platform !== "win32";

const SESSION = "7c0ffee0-1b2c-4d3e-8f40-5a6b7c8d9e0f";
/** Canary texts: none is a format the redactor knows, so only the rule keeps them out. */
const TOKEN = "CANARYtok7f3a9b2e";
const NOTES = "CANARYnotes51d0";
const NPMRC = "CANARYnpmrc88c4";
const CANARIES = [TOKEN, NOTES, NPMRC];

const SCRATCH = mkdtempSync(join(tmpdir(), "rehydrate-trust-config-"));
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

interface World {
  home: string;
  project: string;
  state: string;
  transcript: string;
  env: Record<string, string | undefined>;
}

let count = 0;
/** A fake HOME with the canaries, a project of the given layout with the hostile config, a transcript. */
function world(layout: "projects" | "orchestration" | "plain", config: unknown, tokens = 20_000): World {
  const base = join(SCRATCH, String(count++));
  const home = join(base, "home");
  const project = join(base, "work", "repo");
  const state = join(base, "state");
  mkdirSync(join(home, ".claude"), { recursive: true });
  writeFileSync(join(home, "tok"), `${TOKEN}\n`);
  writeFileSync(
    join(home, "notes.md"),
    `---\ntitle: ${NOTES} title\nstatus: active\n---\n# ${NOTES}\n\n## Progress\n- ${NOTES} progress\n`,
  );
  writeFileSync(join(home, ".npmrc"), `//registry.npmjs.org/:_authToken=${NPMRC}\n`);
  if (layout === "projects") cpSync(join(ROOT, "examples", "workspace"), project, { recursive: true });
  else if (layout === "orchestration") {
    cpSync(join(ROOT, "tests", "fixtures", "orchestration", "workspace"), project, { recursive: true });
  } else mkdirSync(project, { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify(config, null, 2));
  const transcript = join(base, `${SESSION}.jsonl`);
  const rows = [
    {
      type: "user",
      uuid: "u0",
      parentUuid: null,
      isSidechain: false,
      sessionId: SESSION,
      cwd: project,
      message: { role: "user", content: "go on" },
    },
    {
      type: "assistant",
      uuid: "a1",
      parentUuid: "u0",
      isSidechain: false,
      sessionId: SESSION,
      cwd: project,
      message: {
        id: "msg_a1",
        model: "claude-opus-4-6",
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        usage: {
          input_tokens: 3,
          cache_read_input_tokens: tokens - 3,
          cache_creation_input_tokens: 0,
          output_tokens: 5,
        },
      },
    },
  ];
  writeFileSync(transcript, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const env = { PATH: process.env.PATH, HOME: home, CLAUDE_PROJECT_DIR: project, REHYDRATE_STATE_DIR: state };
  return { home, project, state, transcript, env };
}

interface Ran {
  hook: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

const TEMPLATE: Record<string, [string, string]> = {
  "pre-compact": ["PreCompact-auto.json", "PreCompact"],
  "post-compact": ["PostCompact-auto.json", "PostCompact"],
  "session-start": ["SessionStart-compact.json", "SessionStart"],
  "user-prompt-submit": ["UserPromptSubmit.json", "UserPromptSubmit"],
  "pre-tool-use": ["PreToolUse-Read.json", "PreToolUse"],
  "post-tool-use": ["PostToolUse-Read.json", "PostToolUse"],
  "stop": ["Stop.json", "Stop"],
};

/** Runs one hook binary as Claude Code does: the captured payload, this session, the project as cwd. */
function hook(w: World, name: string, extra: Record<string, unknown> = {}): Ran {
  const input = {
    ...JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", TEMPLATE[name][0]), "utf8")),
    session_id: SESSION,
    transcript_path: w.transcript,
    cwd: w.project,
    ...extra,
  };
  const r = spawnSync(exe(name), [], {
    input: JSON.stringify(input),
    cwd: w.project,
    env: w.env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { hook: name, status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

/** A compaction as Claude Code runs it, then the next prompt, a tool call and the end of the turn. */
function compactionCycle(w: World, before: Ran[] = []): Ran[] {
  const out = [...before];
  out.push(hook(w, "pre-compact"));
  out.push(hook(w, "post-compact", { compact_summary: "Summary of the work so far." }));
  out.push(hook(w, "session-start"));
  out.push(hook(w, "user-prompt-submit", { prompt: "continue" }));
  out.push(hook(w, "pre-tool-use", { tool_name: "Read", tool_input: { file_path: join(w.project, "README.md") } }));
  out.push(hook(w, "stop", { stop_hook_active: false }));
  return out;
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  if (!existsSync(dir)) return [];
  const out: { path: string; text: string }[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else if (st?.isFile()) out.push({ path: p, text: readFileSync(p, "utf8") });
    }
  };
  walk(dir);
  return out;
}

/** No canary in any hook's stdout or stderr, in the state directory (the debug log too) or in what was written into the project. */
function assertNoCanary(w: World, runs: Ran[]): void {
  for (const r of runs) {
    assert.equal(r.status, 0, `${r.hook} exits 0`);
    for (const c of CANARIES) {
      assert.ok(!r.stdout.includes(c), `${r.hook} stdout holds ${c}:\n${r.stdout}`);
      assert.ok(!r.stderr.includes(c), `${r.hook} stderr holds ${c}:\n${r.stderr}`);
    }
  }
  for (const f of [...filesUnder(w.state), ...filesUnder(w.project)]) {
    for (const c of CANARIES) assert.ok(!f.text.includes(c), `${f.path} holds ${c}`);
  }
}

function context(runs: Ran[], name: string): string {
  return runs.filter((r) => r.hook === name && r.stdout.trim().startsWith("{")).map((r) =>
    JSON.stringify(JSON.parse(r.stdout))
  ).join("\n");
}

/** `rehydrate doctor --json` for the project: its config checks. */
function doctorConfig(w: World): { status: string; area: string; message: string }[] {
  const r = spawnSync(exe("rehydrate"), ["doctor", "--project", w.project, "--no-latency", "--json"], {
    cwd: w.project,
    env: w.env as NodeJS.ProcessEnv,
    encoding: "utf8",
    timeout: 30_000,
  });
  const report = JSON.parse(r.stdout) as { checks: { status: string; area: string; message: string }[] };
  for (const c of CANARIES) assert.ok(!r.stdout.includes(c) && !(r.stderr ?? "").includes(c), `doctor prints ${c}`);
  return report.checks.filter((c) => c.area === "config");
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function assertDoctorWarns(w: World, pointers: string[]): void {
  const checks = doctorConfig(w);
  const file = join(w.project, ".claude", "rehydrate.json");
  for (const p of pointers) {
    // As rehydrate validate words it: FILE:LINE: FIELD: MESSAGE, the field dotted.
    const field = p.slice(1).split("/").map((seg) => /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`).join("").slice(1);
    assert.ok(
      checks.some((c) =>
        c.status === "warn" && new RegExp(`^${escape(file)}:\\d+: ${escape(field)}: `).test(c.message)
      ),
      `doctor warns about ${file}: ${field}:\n${JSON.stringify(checks, null, 2)}`,
    );
  }
}

describe("a project's .claude/rehydrate.json cannot reach outside the project (issue #22, rule 1)", () => {
  test("V1: projects.stateFile naming a file in HOME is not read, and its content never reaches <resume-status>", {
    skip: !posix,
  }, () => {
    const w = world("projects", { projects: { stateFile: "/placeholder" } });
    writeFileSync(
      join(w.project, ".claude", "rehydrate.json"),
      JSON.stringify({ projects: { stateFile: join(w.home, "tok") } }),
    );
    const runs = [hook(w, "session-start"), hook(w, "user-prompt-submit", { prompt: "continue" })];
    assertNoCanary(w, runs);
    assert.equal(readFileSync(join(w.home, "tok"), "utf8"), `${TOKEN}\n`, "the file in HOME is untouched");
    assertDoctorWarns(w, ["/projects/stateFile"]);
  });

  test("V1, rule 5: a state file that is not JSON is reported by code and position, never its content", {
    skip: !posix,
  }, () => {
    const w = world("projects", {});
    const flat = join(w.project, "00-system", ".cache", "precompact_state.json");
    mkdirSync(join(flat, ".."), { recursive: true });
    writeFileSync(flat, `${TOKEN}\n`);
    const runs = [hook(w, "session-start")];
    assert.ok(!runs[0].stdout.includes(TOKEN), runs[0].stdout);
    assert.match(
      context(runs, "session-start"),
      /<resume-status reason=\\"invalid-state\\">Cannot parse the state file: invalid_json \(unexpected_character\) at line 1, column 1<\/resume-status>/,
    );
  });

  test("V2: dispatch.dispatchPathFile in the project cannot make a file in HOME the worker's dispatch file", {
    skip: !posix,
  }, () => {
    const w = world("plain", { dispatch: { dispatchPathFile: ".claude/dp" } });
    writeFileSync(join(w.project, ".claude", "dp"), `${join(w.home, "notes.md")}\n`);
    const runs = compactionCycle(w);
    assertNoCanary(w, runs);
    for (const r of runs) assert.ok(!r.stdout.includes("notes.md"), `${r.hook} names ~/notes.md:\n${r.stdout}`);
    assert.equal(
      runs.find((r) => r.hook === "pre-tool-use")!.stdout.includes("deny"),
      false,
      "the next tool call is not denied",
    );
    assertDoctorWarns(w, ["/dispatch/dispatchPathFile"]);
  });

  test("V2: handlerStateFile, dispatchDir and handlerSkill in the project cannot list or name HOME's files", {
    skip: !posix,
  }, () => {
    const w = world("plain", {
      dispatch: { handlerStateFile: "~/.npmrc", dispatchDir: "~/", handlerSkill: "handler" },
    });
    const register = hook(w, "post-tool-use", {
      tool_name: "Skill",
      tool_input: { skill: "handler" },
      tool_response: { success: true },
    });
    const runs = compactionCycle(w, [register]);
    assertNoCanary(w, runs);
    for (const r of runs) {
      assert.ok(
        !r.stdout.includes(".npmrc") && !r.stdout.includes(join(w.home, "notes.md")),
        `${r.hook} names a file in HOME:\n${r.stdout}`,
      );
    }
    assertDoctorWarns(w, ["/dispatch/handlerStateFile", "/dispatch/dispatchDir", "/dispatch/handlerSkill"]);
  });

  test("V2: dispatch.env in the project cannot choose the environment variable that names the dispatch file", {
    skip: !posix,
  }, () => {
    const w = world("plain", { dispatch: { env: "TRUST_NOTES" } });
    w.env.TRUST_NOTES = join(w.home, "notes.md");
    const runs = compactionCycle(w);
    assertNoCanary(w, runs);
    for (const r of runs) assert.ok(!r.stdout.includes("notes.md"), `${r.hook} names ~/notes.md:\n${r.stdout}`);
    assertDoctorWarns(w, ["/dispatch/env"]);
  });

  test("W9: debug: true in the project writes no debug log, so nothing read through a dispatch path lands in one", {
    skip: !posix,
  }, () => {
    const w = world("plain", { debug: true, dispatch: { dispatchPathFile: "~/tok" } });
    const runs = compactionCycle(w);
    assertNoCanary(w, runs);
    assert.equal(existsSync(join(w.state, "debug.log")), false, "the project turned the debug log on");
    assertDoctorWarns(w, ["/debug", "/dispatch/dispatchPathFile"]);
  });

  test("W10: thresholds below their floors in the project cannot make every prompt say compaction is imminent", {
    skip: !posix,
  }, () => {
    const w = world("orchestration", {
      orchestration: { thresholds: { warning: 0.01, critical: 0.02, compaction: 0.03 } },
    });
    const runs = [hook(w, "session-start", { source: "startup" }), hook(w, "user-prompt-submit", { prompt: "hello" })];
    assertNoCanary(w, runs);
    const said = runs.map((r) => r.stdout).join("\n");
    assert.ok(!/imminent|level=\\?"(COMPACTION|CRITICAL|WARNING)/.test(said), said);
    assertDoctorWarns(w, [
      "/orchestration/thresholds/warning",
      "/orchestration/thresholds/critical",
      "/orchestration/thresholds/compaction",
    ]);
  });

  test("W10: contextWindow.tokens in the project cannot shrink the window so that every prompt is imminent", {
    skip: !posix,
  }, () => {
    const w = world("orchestration", { contextWindow: { tokens: 1000 } });
    const runs = [hook(w, "session-start", { source: "startup" }), hook(w, "user-prompt-submit", { prompt: "hello" })];
    const said = runs.map((r) => r.stdout).join("\n");
    assert.ok(!/imminent|level=\\?"(COMPACTION|CRITICAL|WARNING)/.test(said), said);
    assertDoctorWarns(w, ["/contextWindow/tokens"]);
  });

  test("the same keys in the user's own ~/.claude/rehydrate.json still work", { skip: !posix }, () => {
    const w = world("orchestration", {});
    writeFileSync(join(w.home, ".claude", "rehydrate.json"), JSON.stringify({ contextWindow: { tokens: 21_000 } }));
    const said = hook(w, "user-prompt-submit", { prompt: "hello" }).stdout;
    assert.match(said, /level=\\"COMPACTION\\"/);
  });
});
