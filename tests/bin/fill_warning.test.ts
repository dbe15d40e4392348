// The everyday fill warning in the compiled binaries (issue 23, "a fill warning in every
// repository"): in an ordinary repository, dist/user-prompt-submit and `rehydrate user-prompt-submit`
// say in one <context-fill> line how close the context is to the point where Claude Code compacts
// (compacts-at: the window less 33,000 tokens, 167,000 of a 200,000-token window), once per
// threshold crossed, silently keep the level on the usual prompt's fast path, start over after a
// compaction, measure a 1M model against its window, and take no threshold below the floor from the
// repository's config.
// Binaries from before the warning print nothing in an ordinary repository, so every test here
// fails on them.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appendFileSync,
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
import { join } from "node:path";
import { bin, run } from "./_bin.ts";

const SENTENCE =
  "The context is filling up: Claude Code compacts this conversation automatically when it holds compacts-at tokens (percent says how close it is).";

interface Repo {
  dir: string;
  home: string;
  transcript: string;
  env: Record<string, string>;
  memo: string;
  state: string;
}

function repo(): Repo {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-fill-bin-"));
  const home = join(dir, ".home");
  mkdirSync(home);
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "main.ts"), "export {};\n");
  const transcript = join(home, "t.jsonl");
  writeFileSync(transcript, "");
  const state = join(home, "state");
  return {
    dir,
    home,
    transcript,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, CLAUDE_PROJECT_DIR: dir, REHYDRATE_STATE_DIR: state },
    memo: join(state, "quiet", "sess-fill.json"),
    state: join(state, "fill", "sess-fill.json"),
  };
}

let row = 0;
/** A main-chain assistant row whose usage block totals `tokens` (input + cache read + cache creation). */
function grow(r: Repo, tokens: number, model = "claude-opus-4-6"): void {
  const id = `a${++row}`;
  appendFileSync(
    r.transcript,
    JSON.stringify({
      type: "assistant",
      uuid: id,
      parentUuid: null,
      isSidechain: false,
      message: {
        id: `msg_${id}`,
        model,
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
        usage: {
          input_tokens: 3,
          cache_creation_input_tokens: 1000,
          cache_read_input_tokens: tokens - 1003,
          output_tokens: 9,
        },
      },
    }) + "\n",
  );
}

function stdin(r: Repo, event = "UserPromptSubmit", extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "sess-fill",
    transcript_path: r.transcript,
    cwd: r.dir,
    hook_event_name: event,
    prompt: "go on",
    ...extra,
  });
}

/** Every file as if written a minute ago (prompts come seconds apart; the memo trusts no newer file). */
function age(dir: string): void {
  const then = new Date(Date.now() - 60_000);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) age(p);
    utimesSync(p, then, then);
  }
  utimesSync(dir, then, then);
}

/** Where Claude Code compacts: the window less its output reserve (20,000) and buffer (13,000). */
const compactsAt = (window: number) => window - 33_000;
const line = (percent: number, tokens: number, window: number) =>
  `<context-fill percent="${percent}" tokens="${tokens}" window="${window}" compacts-at="${
    compactsAt(window)
  }">${SENTENCE}</context-fill>`;

for (
  const [label, hook] of [
    ["dist/user-prompt-submit", () => [bin("user-prompt-submit")]],
    ["rehydrate user-prompt-submit", () => [bin("rehydrate"), "user-prompt-submit"]],
  ] as const
) {
  /** One prompt: what the model is given ("" for nothing). */
  const prompt = (r: Repo, env: Record<string, string> = {}): string => {
    const [path, ...args] = hook();
    const out = run(path, args, { env: { ...r.env, ...env }, stdin: stdin(r) });
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stderr, "");
    return out.stdout === "" ? "" : JSON.parse(out.stdout).hookSpecificOutput.additionalContext;
  };

  test(`${label} says how full the window is once per threshold crossed, in an ordinary repository`, () => {
    // Percentages of 167,000, where Claude Code compacts a 200,000-token window.
    const r = repo();
    grow(r, 50_000);
    assert.equal(prompt(r), "", "below the first threshold");
    grow(r, 90_000); // 53.9 %
    assert.equal(prompt(r), "");
    grow(r, 95_000); // 56.9 %: 55 % crossed
    assert.equal(prompt(r), line(56, 95_000, 200_000));
    assert.equal(prompt(r), "", "the same level twice");
    assert.equal(statSync(r.state).mode & 0o777, 0o600);
    // A minute later the usual prompt leaves the memo, then takes the fast path: still nothing.
    age(r.dir);
    grow(r, 100_000);
    assert.equal(prompt(r), "");
    const memo = readFileSync(r.memo, "utf8");
    const memoMtime = statSync(r.memo).mtimeMs;
    grow(r, 104_000); // 62.3 %: the same level
    assert.equal(prompt(r), "");
    assert.equal(readFileSync(r.memo, "utf8"), memo, "the fast path was not taken");
    assert.equal(statSync(r.memo).mtimeMs, memoMtime, "the fast path was not taken");
    // The next crossing speaks, on the full hook.
    grow(r, 112_000); // 67.1 %
    assert.equal(prompt(r), line(67, 112_000, 200_000));
    grow(r, 117_000);
    assert.equal(prompt(r), "");
    grow(r, 131_000); // 78.4 %
    assert.equal(prompt(r), line(78, 131_000, 200_000));
    // A compaction brings the fill down: nothing said, and the thresholds speak again.
    grow(r, 24_000);
    assert.equal(prompt(r), "");
    grow(r, 94_000); // 56.3 %
    assert.equal(prompt(r), line(56, 94_000, 200_000));
    // The fast path switched off by hand answers the same.
    assert.equal(prompt(r, { REHYDRATE_QUIET: "0" }), "");
    rmSync(r.dir, { recursive: true, force: true });
  });
}

test("a 1M model is measured against 1M: the transcript's model id, SessionStart's model setting", () => {
  const r = repo();
  const hook = bin("user-prompt-submit");
  const prompt = () => {
    const out = run(hook, [], { env: r.env, stdin: stdin(r) });
    return out.stdout === "" ? "" : JSON.parse(out.stdout).hookSpecificOutput.additionalContext;
  };
  // A 1M window compacts at 967,000 tokens.
  grow(r, 150_000, "claude-sonnet-4-5[1m]");
  assert.equal(prompt(), "", "150k of a 1M window is 15 % of the way");
  grow(r, 600_000, "claude-sonnet-4-5[1m]");
  assert.equal(prompt(), line(62, 600_000, 1_000_000));
  // A model whose own window is 1M (the captured sessions' claude-opus-4-8): the same silence.
  const n = repo();
  grow(n, 150_000, "claude-opus-4-8");
  assert.equal(run(hook, [], { env: n.env, stdin: stdin(n) }).stdout, "", "claude-opus-4-8 has a 1M window");

  const s = repo();
  const start = run(bin("session-start"), [], {
    env: s.env,
    stdin: JSON.stringify({ ...JSON.parse(stdin(s, "SessionStart")), source: "startup", model: "claude-opus-4-6[1m]" }),
  });
  assert.equal(start.status, 0, start.stderr);
  grow(s, 150_000);
  const out = run(hook, [], { env: s.env, stdin: stdin(s) });
  assert.equal(out.stdout, "", "SessionStart's opus[1m] makes 150k 15 %");
  // The same tokens under a 200k model (claude-opus-4-6): 89 % of the way to 167,000.
  const t = repo();
  grow(t, 150_000);
  assert.match(
    run(hook, [], { env: t.env, stdin: stdin(t) }).stdout,
    /context-fill percent=\\"89\\" tokens=\\"150000\\" window=\\"200000\\" compacts-at=\\"167000\\"/,
  );
  for (const x of [r, n, s, t]) rmSync(x.dir, { recursive: true, force: true });
});

test("a repository's config cannot lower the thresholds below the floor; it may turn the line off", () => {
  const hook = bin("user-prompt-submit");
  for (const hostile of [[0.05], [0.1, 0.2, 0.3], [0.5, 0.6, 0.7, 0.8, 0.9, 0.99]]) {
    const r = repo();
    mkdirSync(join(r.dir, ".claude"));
    writeFileSync(join(r.dir, ".claude", "rehydrate.json"), JSON.stringify({ session: { fillWarnings: hostile } }));
    // Up to 53.9 % of 167,000: past every hostile threshold, short of the default 55 %.
    for (const tokens of [10_000, 30_000, 60_000, 75_000, 90_000]) {
      grow(r, tokens);
      assert.equal(
        run(hook, [], { env: r.env, stdin: stdin(r) }).stdout,
        "",
        `${JSON.stringify(hostile)} at ${tokens}`,
      );
    }
    grow(r, 92_000); // 55.1 %
    assert.match(run(hook, [], { env: r.env, stdin: stdin(r) }).stdout, /context-fill percent=\\"55\\"/);
    rmSync(r.dir, { recursive: true, force: true });
  }
  const off = repo();
  mkdirSync(join(off.dir, ".claude"));
  writeFileSync(join(off.dir, ".claude", "rehydrate.json"), JSON.stringify({ session: { fillWarnings: [] } }));
  grow(off, 190_000);
  assert.equal(run(hook, [], { env: off.env, stdin: stdin(off) }).stdout, "");
  rmSync(off.dir, { recursive: true, force: true });
});
