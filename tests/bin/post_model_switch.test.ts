// PostModelSwitch in the compiled binaries (issue 25, "the window can change mid-session"): a
// session that started on a 1M-token model and switched to a 200,000-token one must be warned
// against the new window at the next prompt. SessionStart records the starting model; the
// captured 2.1.332 PostModelSwitch input, piped to dist/post-model-switch and to
// `rehydrate post-model-switch`, replaces it; the fill warning reads it. Binaries from before
// the hook have no post-model-switch (missing binary, unknown command) and keep measuring against
// 1M, so the warning never comes: every test here fails on them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, FIXTURES, run } from "./_bin.ts";

const SID = "1b4f5329-d361-4df5-a972-8d56e69e472d";

function session() {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-model-switch-bin-"));
  const home = join(dir, ".home");
  mkdirSync(home);
  const transcript = join(home, `${SID}.jsonl`);
  // 150,000 tokens in the context, as the API reports them (its model id carries no [1m]).
  const usage = {
    input_tokens: 10,
    cache_creation_input_tokens: 990,
    cache_read_input_tokens: 149_000,
    output_tokens: 50,
  };
  writeFileSync(
    transcript,
    JSON.stringify({
      type: "assistant",
      uuid: "a1",
      parentUuid: null,
      isSidechain: false,
      message: { id: "msg_a1", model: "claude-sonnet-4-6", role: "assistant", content: [], usage },
    }) + "\n",
  );
  const state = join(home, "state");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    CLAUDE_PROJECT_DIR: dir,
    REHYDRATE_STATE_DIR: state,
  };
  const input = (file: string, patch: Record<string, unknown> = {}) =>
    JSON.stringify({
      ...JSON.parse(readFileSync(join(FIXTURES, "hook-inputs", file), "utf8")),
      session_id: SID,
      transcript_path: transcript,
      cwd: dir,
      ...patch,
    });
  return {
    env,
    start: () =>
      run(bin("session-start"), [], {
        env,
        stdin: input("SessionStart-startup.json", { model: "claude-opus-4-6[1m]" }),
      }),
    prompt: () => run(bin("user-prompt-submit"), [], { env, stdin: input("UserPromptSubmit.json") }),
    input,
    record: () => JSON.parse(readFileSync(join(state, "sessions", `${SID}.json`), "utf8")),
  };
}

for (const how of ["dist/post-model-switch", "rehydrate post-model-switch"]) {
  test(`after a switch from a 1M model, the next prompt warns against the new window (${how})`, () => {
    const s = session();
    assert.equal(s.start().status, 0);
    assert.equal(s.record().model, "claude-opus-4-6[1m]");
    const before = s.prompt();
    assert.equal(before.status, 0);
    assert.doesNotMatch(before.stdout, /context-fill/, "15 % of the way to 1M's 967,000: nothing to say yet");
    const [exe, args] = how.startsWith("dist/")
      ? [bin("post-model-switch"), []]
      : [bin("rehydrate"), ["post-model-switch"]];
    const r = run(exe, args, { env: s.env, stdin: s.input("PostModelSwitch-command.json") });
    assert.deepEqual([r.status, r.stdout], [0, ""]);
    assert.equal(s.record().model, "claude-sonnet-4-6");
    const after = s.prompt();
    assert.equal(after.status, 0);
    // 150,000 of the 167,000 tokens at which Claude Code compacts a 200,000-token window.
    assert.match(
      after.stdout,
      /context-fill percent=\\"89\\" tokens=\\"150000\\" window=\\"200000\\" compacts-at=\\"167000\\"/,
    );
  });
}

test("post-model-switch fails open on bad input and never prints", () => {
  const s = session();
  for (
    const stdin of [
      "",
      "{",
      '{"hook_event_name":"PostModelSwitch"}',
      s.input("PostModelSwitch-command.json", { to_model: 7 }),
    ]
  ) {
    const r = run(bin("post-model-switch"), [], { env: s.env, stdin });
    assert.deepEqual([r.status, r.stdout], [0, ""], stdin);
  }
});
