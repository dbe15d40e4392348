// The everyday fill warning (lib/session/fill_warning.ts) through the full UserPromptSubmit hook: one
// `<context-fill>` line per threshold crossed, silence in between, a reset after a compaction, the
// window from the session's model, the transcript's model id, the client's context_tokens and
// CLAUDE_CODE_AUTO_COMPACT_WINDOW, and a project config that cannot make it cry wolf.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { userPromptSubmitHook } from "../../../lib/events/user_prompt_submit.ts";
import { preCompactHook } from "../../../lib/events/pre_compact_hook.ts";
import { clientContextTokens, fillCrossed, fillWarningPath } from "../../../lib/session/fill_level.ts";
import { FILL_WARNING_TEXT, fillWarningElement } from "../../../lib/session/fill_warning.ts";
import { ajvFor } from "../_orchestration_env.ts";

const ORCHESTRATION = join(import.meta.dirname!, "..", "..", "fixtures", "orchestration", "workspace");
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Repo {
  dir: string;
  home: string;
  transcript: string;
  env: Record<string, string>;
}

function repo(): Repo {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-fill-"));
  made.push(dir);
  const home = join(dir, ".home");
  mkdirSync(home);
  const transcript = join(home, "t.jsonl");
  writeFileSync(transcript, "");
  return {
    dir,
    home,
    transcript,
    env: { CLAUDE_PROJECT_DIR: dir, REHYDRATE_STATE_DIR: join(home, "state"), HOME: home },
  };
}

let n = 0;
function grow(r: Repo, tokens: number, model = "claude-opus-4-6"): void {
  const id = `a${++n}`;
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
        usage: { input_tokens: 2, cache_read_input_tokens: tokens - 2, output_tokens: 7 },
      },
    }) + "\n",
  );
}

/** One prompt through the full hook: the injected text, or "" for none. */
async function prompt(r: Repo, options: { env?: Record<string, string>; input?: Record<string, unknown> } = {}) {
  const text = JSON.stringify({
    session_id: "sess-f",
    transcript_path: r.transcript,
    cwd: r.dir,
    hook_event_name: "UserPromptSubmit",
    prompt: "go on",
    ...options.input,
  });
  const env = { ...r.env, REHYDRATE_QUIET: "0", ...options.env };
  const out = (await handleHook("UserPromptSubmit", userPromptSubmitHook, text, { env, homeDir: r.home })).stdout;
  return out === "" ? "" : JSON.parse(out).hookSpecificOutput.additionalContext as string;
}

function config(r: Repo, where: "user" | "project", value: unknown): void {
  const dir = join(where === "user" ? r.home : r.dir, ".claude");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "rehydrate.json"), JSON.stringify(value));
}

describe("fillCrossed()", () => {
  test("fillCrossed() gives the highest threshold reached, in any order, and 0 for none or an unknown fill", () => {
    assert.equal(fillCrossed(0.7, [0.75, 0.55, 0.65]), 0.65);
    assert.equal(fillCrossed(0.55, [0.55, 0.65]), 0.55);
    assert.equal(fillCrossed(0.5499, [0.55, 0.65]), 0);
    assert.equal(fillCrossed(1.3, [0.55, 0.65]), 0.65);
    assert.equal(fillCrossed(null, [0.55]), 0);
    assert.equal(fillCrossed(0.9, []), 0);
  });

  test("clientContextTokens() takes only a positive whole number", () => {
    assert.equal(clientContextTokens({ context_tokens: 250_000 }), 250_000);
    for (const bad of [0, -5, 1.5, "250000", null, Number.NaN, 2 ** 60]) {
      assert.equal(clientContextTokens({ context_tokens: bad }), undefined, String(bad));
    }
    assert.equal(clientContextTokens({}), undefined);
  });

  test("fillWarningElement() is one line: numbers as attributes and our fixed sentence", () => {
    const el = fillWarningElement(66, 110_220, 200_000, 167_000);
    assert.equal(
      el,
      `<context-fill percent="66" tokens="110220" window="200000" compacts-at="167000">${FILL_WARNING_TEXT}</context-fill>`,
    );
    assert.ok(!el.includes("\n") && el.length < 250, el);
  });
});

describe("the fill warning in an ordinary repository", () => {
  test("speaks once per threshold crossed, keeps quiet in between and starts over after a compaction", async () => {
    // A 200k window: Claude Code compacts at 167,000 tokens (200,000 - 20,000 - 13,000).
    const r = repo();
    grow(r, 50_000);
    assert.equal(await prompt(r), "");
    grow(r, 90_000); // 53.9 % of the way
    assert.equal(await prompt(r), "");
    grow(r, 93_000); // 55.7 %: 0.55 crossed
    assert.equal(await prompt(r), fillWarningElement(55, 93_000, 200_000, 167_000));
    assert.equal(await prompt(r), "", "the same level spoke twice");
    grow(r, 104_000);
    assert.equal(await prompt(r), "");
    grow(r, 127_000); // 76 %: 0.65 and 0.75 crossed at once, one line
    assert.equal(await prompt(r), fillWarningElement(76, 127_000, 200_000, 167_000));
    grow(r, 135_000);
    assert.equal(await prompt(r), "");
    const state = fillWarningPath(join(r.home, "state"), "sess-f");
    assert.equal(statSync(state).mode & 0o777, 0o600);
    const saved = JSON.parse(readFileSync(state, "utf8"));
    assert.equal(saved.crossed, 0.75);
    assert.ok(ajvFor("fill_warning_state.v1.json")(saved), "the state does not match its schema");
    // A compaction: the fill drops, silently; the thresholds speak again on the way up.
    grow(r, 30_000);
    assert.equal(await prompt(r), "");
    assert.equal(JSON.parse(readFileSync(state, "utf8")).crossed, 0);
    grow(r, 110_000);
    assert.equal(await prompt(r), fillWarningElement(65, 110_000, 200_000, 167_000));
  });

  test("a transcript without usage changes nothing: no line, the level on record kept", async () => {
    const r = repo();
    assert.equal(await prompt(r), "");
    grow(r, 120_000);
    assert.match(await prompt(r), /^<context-fill percent="71"/);
    writeFileSync(r.transcript, "");
    assert.equal(await prompt(r), "");
    grow(r, 120_000);
    assert.equal(await prompt(r), "");
  });

  test("measures against 1M for a 1M model: the session's model, the row's model id, the client's context_tokens", async () => {
    // SessionStart recorded opus[1m]: 300k tokens are 30 %, no line.
    const a = repo();
    mkdirSync(join(a.home, "state", "sessions"), { recursive: true, mode: 0o700 });
    writeFileSync(
      join(a.home, "state", "sessions", "sess-f.json"),
      JSON.stringify({
        schema_version: 1,
        session_id: "sess-f",
        model: "opus[1m]",
        updated_at: "2026-11-25T10:00:00Z",
      }),
      { mode: 0o600 },
    );
    grow(a, 150_000);
    assert.equal(await prompt(a), "");
    grow(a, 560_000); // 57.9 % of the way to 967,000
    assert.equal(await prompt(a), fillWarningElement(57, 560_000, 1_000_000, 967_000));
    // The transcript's model id marks 1M.
    const b = repo();
    grow(b, 150_000, "claude-sonnet-4-5[1m]");
    assert.equal(await prompt(b), "");
    // A model whose own window is 1M (today's defaults): no line either.
    const e = repo();
    grow(e, 150_000, "claude-opus-5-5");
    assert.equal(await prompt(e), "");
    // The same fill under a 200k model speaks.
    const c = repo();
    grow(c, 150_000);
    assert.equal(await prompt(c), fillWarningElement(89, 150_000, 200_000, 167_000));
    // The client says more than 200k tokens: the window is 1M.
    const d = repo();
    grow(d, 150_000);
    assert.equal(await prompt(d, { input: { context_tokens: 210_000 } }), "");
  });

  test("CLAUDE_CODE_AUTO_COMPACT_WINDOW narrows the window Claude Code compacts against", async () => {
    const r = repo();
    grow(r, 120_000, "claude-opus-4-6[1m]"); // 12 % of 1M
    assert.equal(await prompt(r), "");
    assert.equal(
      await prompt(r, { env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "200k" } }),
      fillWarningElement(71, 120_000, 200_000, 167_000),
    );
  });

  test("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE brings the point where Claude Code compacts forward", async () => {
    const r = repo();
    grow(r, 80_000); // 47.9 % of 167,000: quiet without the override
    assert.equal(await prompt(r), "");
    // 50 % of the window less the output reserve: Claude Code compacts at 90,000.
    assert.equal(
      await prompt(r, { env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "50" } }),
      fillWarningElement(88, 80_000, 200_000, 90_000),
    );
  });

  test("the user's thresholds, [] and session.enabled: false", async () => {
    const r = repo();
    config(r, "user", { session: { fillWarnings: [0.9, 0.5] } });
    grow(r, 84_000);
    assert.equal(await prompt(r), fillWarningElement(50, 84_000, 200_000, 167_000));
    grow(r, 140_000);
    assert.equal(await prompt(r), "");
    grow(r, 151_000);
    assert.equal(await prompt(r), fillWarningElement(90, 151_000, 200_000, 167_000));

    const off = repo();
    config(off, "project", { session: { fillWarnings: [] } });
    grow(off, 190_000);
    assert.equal(await prompt(off), "");
    const layerOff = repo();
    config(layerOff, "project", { session: { enabled: false } });
    grow(layerOff, 190_000);
    assert.equal(await prompt(layerOff), "");
  });

  test("a project's config cannot make it speak on a half-empty window or on most prompts", async () => {
    for (const hostile of [[0.1], [0.01, 0.02, 0.03], [0.5, 0.6, 0.7, 0.8, 0.9, 0.95], [0], ["0.1"], 0.1]) {
      const r = repo();
      config(r, "project", { session: { fillWarnings: hostile } });
      const said: string[] = [];
      for (const tokens of [15_000, 30_000, 45_000, 60_000, 75_000, 90_000]) {
        grow(r, tokens);
        said.push(await prompt(r));
      }
      // Rejected: the defaults hold, and below 55 % nothing is said.
      assert.deepEqual(said, ["", "", "", "", "", ""], JSON.stringify(hostile));
      grow(r, 92_000);
      assert.match(await prompt(r), /^<context-fill percent="55"/, JSON.stringify(hostile));
    }
  });
});

test("a prompt that re-delivers a compaction keeps to its short form; the next prompt speaks", async () => {
  const r = repo();
  appendFileSync(
    r.transcript,
    JSON.stringify({
      type: "user",
      uuid: "u1",
      parentUuid: null,
      isSidechain: false,
      message: { role: "user", content: "Fix the flaky test in src/a.test.ts" },
    }) + "\n",
  );
  grow(r, 140_000);
  const pre = JSON.stringify({
    session_id: "sess-f",
    transcript_path: r.transcript,
    cwd: r.dir,
    hook_event_name: "PreCompact",
    trigger: "auto",
    custom_instructions: "",
  });
  await handleHook("PreCompact", preCompactHook, pre, { env: { ...r.env }, homeDir: r.home });
  const redelivered = await prompt(r);
  assert.match(redelivered, /<session-context /);
  assert.doesNotMatch(redelivered, /context-fill/);
  assert.match(await prompt(r), /^<context-fill percent="83"/);
});

test("in an orchestration run the context monitor speaks for the fill, not the everyday line", async () => {
  const r = repo();
  cpSync(ORCHESTRATION, r.dir, { recursive: true });
  grow(r, 150_000);
  const out = await prompt(r);
  assert.match(out, /<context-monitor level="WARNING"/);
  assert.doesNotMatch(out, /context-fill/);
  assert.throws(() => statSync(fillWarningPath(join(r.home, "state"), "sess-f")));
});
