// The usual prompt's fast path in the compiled binaries: dist/user-prompt-submit and
// `rehydrate user-prompt-submit` answer a quiet prompt without the full hook (the memo is left as it
// was, the monitor state has the new fill), and the memo lists every file the full hook looked at
// (checked against the system calls the full hook makes, under strace, where there is strace).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bin, EXE, ROOT, run } from "./_bin.ts";

const FIXTURE = join(ROOT, "tests", "fixtures", "orchestration", "workspace");

interface World {
  ws: string;
  env: Record<string, string>;
  transcript: string;
  memo: string;
  stdin: (event: string) => string;
}

function world(): World {
  const ws = mkdtempSync(join(tmpdir(), "rehydrate-quiet-bin-"));
  cpSync(FIXTURE, ws, { recursive: true });
  rmSync(join(ws, "projects", "PROJ-002-docs-site"), { recursive: true });
  const home = join(ws, ".home");
  mkdirSync(home);
  const transcript = join(home, "t.jsonl");
  writeFileSync(transcript, "");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CLAUDE_PROJECT_DIR: ws,
    REHYDRATE_STATE_DIR: join(home, "state"),
  };
  const stdin = (event: string) =>
    JSON.stringify({
      session_id: "sess-q",
      transcript_path: transcript,
      cwd: ws,
      hook_event_name: event,
      prompt: "go",
      trigger: "auto",
      custom_instructions: "",
    });
  return { ws, env, transcript, memo: join(home, "state", "quiet", "sess-q.json"), stdin };
}

let row = 0;
function grow(w: World, tokens: number): void {
  const id = `a${++row}`;
  appendFileSync(
    w.transcript,
    JSON.stringify({
      type: "assistant",
      uuid: id,
      parentUuid: null,
      isSidechain: false,
      message: {
        id: `msg_${id}`,
        model: "claude-opus-4-6",
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        usage: { input_tokens: tokens, output_tokens: 1 },
      },
    }) + "\n",
  );
}

function age(dir: string): void {
  const then = new Date(Date.now() - 60_000);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) age(p);
    utimesSync(p, then, then);
  }
}

/** A compaction, its alert and reminders used up, a minute, and the prompt that leaves the memo. */
function settle(w: World, hook: string[]): void {
  grow(w, 130_000);
  assert.equal(run(bin("pre-compact"), [], { env: w.env, stdin: w.stdin("PreCompact") }).status, 0);
  for (let i = 0; i < 4; i++) run(hook[0], hook.slice(1), { env: w.env, stdin: w.stdin("UserPromptSubmit") });
  age(w.ws);
  const r = run(hook[0], hook.slice(1), { env: w.env, stdin: w.stdin("UserPromptSubmit") });
  assert.match(r.stdout, /context-monitor/);
  assert.ok(statSync(w.memo).isFile(), "no memo after a quiet prompt");
}

for (
  const [label, hook] of [["dist/user-prompt-submit", [bin("user-prompt-submit")]], ["rehydrate user-prompt-submit", [
    bin("rehydrate"),
    "user-prompt-submit",
  ]]] as const
) {
  test(`${label} answers a quiet prompt on the fast path, as the full hook would`, () => {
    const w = world();
    settle(w, [...hook]);
    const memo = readFileSync(w.memo, "utf8");
    const memoMtime = statSync(w.memo).mtimeMs;
    grow(w, 140_000);
    const fast = run(hook[0], hook.slice(1), { env: w.env, stdin: w.stdin("UserPromptSubmit") });
    assert.equal(fast.status, 0);
    const out = JSON.parse(fast.stdout).hookSpecificOutput.additionalContext;
    assert.match(
      out,
      /^<context-monitor level="WARNING" fill="70.0%" tokens="140000" window="200000" resumption="(FRESH|STALE|UNKNOWN)"\/>$/,
    );
    const state = JSON.parse(readFileSync(join(w.ws, ".jerry", "context-monitor-state.json"), "utf8"));
    assert.equal(state.tokens, 140_000);
    // The full hook would have written the memo again: the fast path left it alone.
    assert.equal(readFileSync(w.memo, "utf8"), memo);
    assert.equal(statSync(w.memo).mtimeMs, memoMtime);
    // The full hook, switched on by hand, prints the same.
    const slow = run(hook[0], hook.slice(1), {
      env: { ...w.env, REHYDRATE_QUIET: "0" },
      stdin: w.stdin("UserPromptSubmit"),
    });
    assert.equal(slow.stdout, fast.stdout);
    // --help and bad input still reach the full hook's entry.
    assert.match(run(hook[0], [...hook.slice(1), "--help"]).stdout, /UserPromptSubmit/);
    assert.deepEqual(run(hook[0], hook.slice(1), { env: w.env, stdin: "{" }), { status: 0, stdout: "", stderr: "" });
    rmSync(w.ws, { recursive: true, force: true });
  });
}

/** A compaction's delivery claim or follow-up claim (compactions/<key>.<id>.delivered, .followup). */
const claim = (p: string): boolean => /\.(delivered|followup)$/.test(p);

// strace present and allowed to trace here (a container may forbid ptrace).
const strace = EXE === "" && spawnSync("strace", ["-qq", "-o", "/dev/null", "true"]).status === 0;
test("the memo names every file the full UserPromptSubmit hook looks at (strace)", {
  skip: strace ? false : "no usable strace here",
}, () => {
  const w = world();
  settle(w, [bin("user-prompt-submit")]);
  rmSync(w.memo);
  grow(w, 135_000);
  const log = join(w.ws, ".home", "strace.log");
  const r = spawnSync("strace", ["-f", "-qq", "-e", "trace=%file", "-o", log, bin("user-prompt-submit")], {
    input: w.stdin("UserPromptSubmit"),
    env: w.env,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  const memo = JSON.parse(readFileSync(w.memo, "utf8")) as {
    deps: [string, string, string][];
    monitor: { state_path: string };
  };
  const named = new Set(memo.deps.map((d) => d[0]));
  // Besides the memo's files, the hook may look at the transcript, at the state it writes (and
  // its temporary files), at the memo itself and at the folders on the way to any of them.
  const allowed = (p: string): boolean => {
    if (named.has(p) || p === w.transcript || p.startsWith(memo.monitor.state_path) || p.startsWith(dirname(w.memo))) {
      return true;
    }
    if (p.includes("/.context-monitor-state.json.") || /\.tmp$/.test(p)) return true;
    // A delivery claim and a follow-up claim are only tested for existence (an lstat, an exclusive
    // create that finds the file there): the compactions folder's mtime (named) moves when one
    // appears or goes.
    if (dirname(p) === join(w.ws, ".home", "state", "compactions") && claim(p) && named.has(dirname(p))) return true;
    return [...named, w.transcript, memo.monitor.state_path, w.memo].some((n) => n.startsWith(p + "/"));
  };
  const seen = new Set<string>();
  for (const line of readFileSync(log, "utf8").split("\n")) {
    for (const m of line.matchAll(/"(\/[^"]*)"/g)) {
      const p = m[1].replace(/\/+$/, "");
      if (p.startsWith(w.ws) && !p.startsWith(join(w.ws, ".home", "strace.log"))) seen.add(p);
    }
  }
  assert.ok(seen.size > 10, `strace saw only ${seen.size} paths`);
  const missing = [...seen].filter((p) => !allowed(p));
  assert.deepEqual(missing, [], "files the full hook looked at that its memo does not name");
  rmSync(w.ws, { recursive: true, force: true });
});

/** An ordinary repository (no projects/, no run): the everyday fill warning is all the hook may say. */
function ordinary(): World {
  const w = world();
  rmSync(join(w.ws, "projects"), { recursive: true });
  rmSync(join(w.ws, ".jerry"), { recursive: true, force: true });
  return w;
}

function ageAll(w: World): void {
  age(w.ws);
  const then = new Date(Date.now() - 60_000);
  utimesSync(w.ws, then, then);
}

test("in an ordinary repository the fast path keeps the fill warning's level: silence, and a crossing on the full hook", () => {
  const w = ordinary();
  const hook = bin("user-prompt-submit");
  const say = (env: Record<string, string> = {}) =>
    run(hook, [], { env: { ...w.env, ...env }, stdin: w.stdin("UserPromptSubmit") }).stdout;
  // Percentages of 167,000, where Claude Code compacts a 200,000-token window.
  grow(w, 94_000); // 56 %: the first threshold
  assert.match(say(), /<context-fill percent=\\"56\\"/);
  ageAll(w);
  assert.equal(say(), ""); // leaves the memo
  const memo = readFileSync(w.memo, "utf8");
  assert.equal(JSON.parse(memo).fill_warning.crossed, 0.55);
  const memoMtime = statSync(w.memo).mtimeMs;
  grow(w, 100_000); // 59.9 %: the same level
  assert.equal(say(), "");
  assert.equal(statSync(w.memo).mtimeMs, memoMtime, "the fast path was not taken");
  assert.equal(say({ REHYDRATE_QUIET: "0" }), "", "the full hook disagrees");
  grow(w, 111_000); // 66.5 %: the fast path declines, the full hook speaks
  assert.match(say(), /<context-fill percent=\\"66\\"/);
  rmSync(w.ws, { recursive: true, force: true });
});

test("in an ordinary repository the memo names every file the full hook looks at (strace)", {
  skip: strace ? false : "no usable strace here",
}, () => {
  const w = ordinary();
  const hook = bin("user-prompt-submit");
  grow(w, 112_000);
  run(hook, [], { env: w.env, stdin: w.stdin("UserPromptSubmit") }); // the crossing: the level on record
  ageAll(w);
  grow(w, 114_000);
  const log = join(w.ws, ".home", "strace.log");
  const r = spawnSync("strace", ["-f", "-qq", "-e", "trace=%file", "-o", log, hook], {
    input: w.stdin("UserPromptSubmit"),
    env: w.env,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "");
  const memo = JSON.parse(readFileSync(w.memo, "utf8")) as { deps: [string, string, string][]; monitor: null };
  assert.equal(memo.monitor, null);
  const named = new Set(memo.deps.map((d) => d[0]));
  const fill = join(w.ws, ".home", "state", "fill", "sess-q.json");
  assert.ok(named.has(fill), "the memo does not name the fill warning's state");
  const allowed = (p: string): boolean => {
    if (named.has(p) || p === w.transcript || p.startsWith(dirname(w.memo))) return true;
    if (/\.tmp$/.test(p)) return true;
    if (dirname(p) === join(w.ws, ".home", "state", "compactions") && claim(p) && named.has(dirname(p))) return true;
    return [...named, w.transcript, w.memo].some((n) => n.startsWith(p + "/"));
  };
  const seen = new Set<string>();
  for (const line of readFileSync(log, "utf8").split("\n")) {
    for (const m of line.matchAll(/"(\/[^"]*)"/g)) {
      const p = m[1].replace(/\/+$/, "");
      if (p.startsWith(w.ws) && !p.startsWith(join(w.ws, ".home", "strace.log"))) seen.add(p);
    }
  }
  assert.ok(seen.has(fill), "the full hook did not look at the fill warning's state");
  const missing = [...seen].filter((p) => !allowed(p));
  assert.deepEqual(missing, [], "files the full hook looked at that its memo does not name");
  rmSync(w.ws, { recursive: true, force: true });
});
