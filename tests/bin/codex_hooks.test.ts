// The Codex CLI's hooks in the compiled binaries (issue #40): `rehydrate <hook> --agent codex`, as
// `rehydrate install --agent codex` registers them, and the per-hook binaries told the client by
// the input alone, fed the hook inputs and rollouts captured from Codex 0.171.0: PreCompact prints
// nothing, SessionStart(compact) prints SessionStart's element and the summary's gaps once, within
// Codex's cap, and a second SessionStart prints nothing.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, ROOT, run } from "./_bin.ts";

const CAPTURE = join(ROOT, "tests", "fixtures", "codex-0.171.0");
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-codex-bin-"));
  made.push(dir);
  const rollout = join(dir, "sessions", "rollout-2026-11-28T15-27-05-thread.jsonl");
  mkdirSync(join(dir, "sessions"));
  const env = { HOME: dir, REHYDRATE_STATE_DIR: join(dir, "state"), PATH: "/usr/bin:/bin" };
  const input = (name: string) => {
    const value = JSON.parse(readFileSync(join(CAPTURE, "hook-inputs", name), "utf8"));
    return JSON.stringify({ ...value, transcript_path: rollout, cwd: dir });
  };
  const at = (name: string) => writeFileSync(rollout, readFileSync(join(CAPTURE, "rollout-snapshots", name)));
  return { env, input, at };
}

for (
  const [label, command] of [
    ["rehydrate <hook> --agent codex", (hook: string) => [bin("rehydrate"), [hook, "--agent", "codex"]] as const],
    ["dist/<hook>, told by the input", (hook: string) => [bin(hook), []] as const],
  ] as const
) {
  test(`${label}: PreCompact prints nothing, SessionStart(compact) delivers once within Codex's cap`, () => {
    const s = setup();
    s.at("at-PreCompact-1.jsonl");
    const [pre, preArgs] = command("pre-compact");
    const p = run(pre, [...preArgs], { stdin: s.input("PreCompact-manual.json"), env: s.env });
    assert.deepEqual([p.status, p.stdout], [0, ""]);
    assert.ok(readdirSync(join(s.env.REHYDRATE_STATE_DIR, "sessions")).some((n) => n.endsWith(".snapshot.json")));
    s.at("at-SessionStart-1.jsonl");
    const [start, startArgs] = command("session-start");
    const first = run(start, [...startArgs], { stdin: s.input("SessionStart-compact.json"), env: s.env });
    assert.equal(first.status, 0);
    const context: string = JSON.parse(first.stdout).hookSpecificOutput.additionalContext;
    assert.equal((context.match(/<session-context\b/g) ?? []).length, 2);
    assert.match(context, /<command exit="1"[^>]*>npm test<\/command>/);
    assert.match(context, /<subject>Fix rounding: sum integer cents in src\/format\.js<\/subject>/);
    assert.ok(new TextEncoder().encode(first.stdout).length <= 10_000);
    const second = run(start, [...startArgs], { stdin: s.input("SessionStart-compact.json"), env: s.env });
    assert.deepEqual([second.status, second.stdout], [0, ""]);
  });
}
