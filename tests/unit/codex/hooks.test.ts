// The hooks under the Codex CLI (lib/events/codex_*.ts, reached from the usual handlers by the
// host), fed the hook inputs and rollouts captured from Codex 0.171.0 in the order the client runs
// them: PreCompact → PostCompact → SessionStart(compact) (a resumed thread that compacts before its
// first turn: SessionStart resume, then compact), the context delivered once, UserPromptSubmit's
// re-delivery, the fill warning from the rollout's token counts.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import { preCompactHook } from "../../../lib/events/pre_compact_hook.ts";
import { sessionStartHook } from "../../../lib/events/session_start.ts";
import { userPromptSubmitHook } from "../../../lib/events/user_prompt_submit.ts";
import { postCompactHook } from "../../../lib/events/post_compact.ts";
import { sessionCheckpointHook } from "../../../lib/events/session_checkpoint.ts";
import { CODEX_FILL_WARNING_TEXT } from "../../../lib/session/fill_warning.ts";
import { type CodexCopy, codexCopy, THREAD } from "./_fixture.ts";

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

let clock = Date.parse("2026-11-28T15:12:40.000Z");
const tick = () => new Date(clock += 1000);

/** The additionalContext a hook printed, or "" for none. */
function context(stdout: string): string {
  if (stdout === "") return "";
  return JSON.parse(stdout).hookSpecificOutput.additionalContext;
}

function run(c: CodexCopy, event: "PreCompact" | "SessionStart" | "UserPromptSubmit", input: string): string {
  const handler =
    { PreCompact: preCompactHook, SessionStart: sessionStartHook, UserPromptSubmit: userPromptSubmitHook }[
      event
    ];
  // deno-lint-ignore no-explicit-any -- one of three handlers, each for its own event
  const out = handleHook(event, handler as any, input, { env: c.env, now: tick() });
  assert.equal(out.exitCode, 0);
  return out.stdout;
}

function debugLog(c: CodexCopy): string {
  const path = join(c.env.REHYDRATE_STATE_DIR, "debug.log");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

describe("a /compact under Codex", () => {
  test("PreCompact saves the snapshot and prints nothing; SessionStart(compact) delivers once", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    assert.equal(run(c, "PreCompact", c.input("PreCompact-manual.json", path)), "");
    const saved = JSON.parse(
      readFileSync(join(c.env.REHYDRATE_STATE_DIR, "sessions", `${THREAD}.snapshot.json`), "utf8"),
    );
    assert.equal(saved.host, "codex");
    assert.equal(saved.built_by, "pre-compact");
    assert.equal(saved.trigger, "manual");
    // PostCompact: nothing to do under Codex.
    const post = handleHook("PostCompact", postCompactHook, c.input("PostCompact-manual.json", path), { env: c.env });
    assert.equal(post.stdout, "");
    c.rollout("rollout-snapshots/at-SessionStart-1.jsonl", path);
    const first = context(run(c, "SessionStart", c.input("SessionStart-compact.json", path)));
    assert.equal((first.match(/<session-context\b/g) ?? []).length, 2);
    assert.match(first, /saved-at="2026-11-28T15:12:4\d\.000Z"/);
    assert.equal(context(run(c, "SessionStart", c.input("SessionStart-compact.json", path))), "");
    assert.equal(context(run(c, "UserPromptSubmit", c.input("UserPromptSubmit.json", path))), "");
    assert.doesNotMatch(debugLog(c), /snapshot rebuilt/);
  });

  test("a resumed thread that compacts first: SessionStart(resume) delivers, SessionStart(compact) stays silent", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    run(c, "PreCompact", c.input("PreCompact-auto.json", path));
    c.rollout("rollout-snapshots/at-SessionStart-1.jsonl", path);
    const resumed = context(run(c, "SessionStart", c.input("SessionStart-resume.json", path)));
    assert.match(resumed, /<session-context source="rehydrate"/);
    assert.equal(context(run(c, "SessionStart", c.input("SessionStart-compact.json", path))), "");
    // A later resume of the same thread has nothing new to deliver.
    assert.equal(context(run(c, "SessionStart", c.input("SessionStart-resume.json", path))), "");
  });

  test("without PreCompact's snapshot, SessionStart(compact) rebuilds it from the rows before the compaction", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-SessionStart-1.jsonl");
    const text = context(run(c, "SessionStart", c.input("SessionStart-compact.json", path)));
    assert.match(text, /<command exit="1"[^>]*>npm test<\/command>/);
    assert.match(text, /<subject>Fix rounding/);
    assert.match(debugLog(c), /snapshot rebuilt from the rollout/);
  });

  test("when SessionStart's output never came, the next prompt delivers the same context, once", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    run(c, "PreCompact", c.input("PreCompact-manual.json", path));
    c.rollout("rollout-snapshots/at-SessionStart-1.jsonl", path);
    const prompt = context(run(c, "UserPromptSubmit", c.input("UserPromptSubmit.json", path)));
    assert.equal((prompt.match(/<session-context\b/g) ?? []).length, 2);
    assert.match(debugLog(c), /delivered by user-prompt-submit/);
    assert.equal(context(run(c, "UserPromptSubmit", c.input("UserPromptSubmit.json", path))), "");
    assert.equal(context(run(c, "SessionStart", c.input("SessionStart-compact.json", path))), "");
  });

  test("startup delivers nothing, and session.enabled: false turns the layer off", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-SessionStart-1.jsonl");
    assert.equal(context(run(c, "SessionStart", c.input("SessionStart-startup.json", path))), "");
    mkdirSync(join(c.project, ".claude"), { recursive: true });
    writeFileSync(join(c.project, ".claude", "rehydrate.json"), JSON.stringify({ session: { enabled: false } }));
    run(c, "PreCompact", c.input("PreCompact-manual.json", path));
    assert.equal(context(run(c, "SessionStart", c.input("SessionStart-compact.json", path))), "");
    assert.ok(!existsSync(join(c.env.REHYDRATE_STATE_DIR, "sessions", `${THREAD}.snapshot.json`)));
  });

  test("the host comes from the registration too: a rollout under another name with --agent codex", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-SessionStart-1.jsonl");
    const odd = join(c.dir, "thread.jsonl");
    writeFileSync(odd, readFileSync(path));
    const input = c.input("SessionStart-compact.json", odd);
    const told = handleHook("SessionStart", sessionStartHook, input, { env: c.env, now: tick(), host: "codex" });
    assert.match(context(told.stdout), /part="after-summary"/);
  });

  test("the background checkpoint does nothing under Codex", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    const out = handleHook("Stop", sessionCheckpointHook, c.input("Stop.json", path), { env: c.env });
    assert.equal(out.stdout, "");
    assert.ok(!existsSync(join(c.env.REHYDRATE_STATE_DIR, "sessions", `${THREAD}.checkpoint.json`)));
  });
});

describe("the fill warning under Codex", () => {
  function grow(path: string, tokens: number, ordinal: number): void {
    appendFileSync(
      path,
      JSON.stringify({
        timestamp: "2026-11-28T15:20:00.000Z",
        ordinal,
        type: "event_msg",
        payload: {
          type: "token_count",
          info: { last_token_usage: { total_tokens: tokens }, model_context_window: 258_400 },
        },
      }) + "\n",
    );
  }

  test("speaks once per threshold, toward 90 % of the model's window, in Codex's words", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    const prompt = () => context(run(c, "UserPromptSubmit", c.input("UserPromptSubmit.json", path)));
    assert.equal(prompt(), "");
    grow(path, 140_000, 1000);
    assert.equal(
      prompt(),
      `<context-fill percent="57" tokens="140000" window="258400" compacts-at="244800">${CODEX_FILL_WARNING_TEXT}</context-fill>`,
    );
    assert.equal(prompt(), "");
    grow(path, 190_000, 1001);
    assert.match(prompt(), /^<context-fill percent="77" /);
    assert.equal(prompt(), "");
  });

  test("the user's model_auto_compact_token_limit moves the compaction point", () => {
    const c = codexCopy(made);
    const path = c.rollout("rollout-snapshots/at-PreCompact-1.jsonl");
    mkdirSync(c.env.CODEX_HOME, { recursive: true });
    writeFileSync(join(c.env.CODEX_HOME, "config.toml"), "model_auto_compact_token_limit = 100000\n");
    grow(path, 60_000, 1000);
    assert.match(
      context(run(c, "UserPromptSubmit", c.input("UserPromptSubmit.json", path))),
      /percent="60" tokens="60000" window="258400" compacts-at="100000"/,
    );
  });
});
