import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, BINARIES, FIXTURES, FIXTURES_OLDEST, HOOKS, ROOT, run } from "./_bin.ts";

const VERSION = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const EVENT: Record<string, string> = {
  "pre-compact": "PreCompact",
  "post-compact": "PostCompact",
  "session-start": "SessionStart",
  "user-prompt-submit": "UserPromptSubmit",
  "pre-tool-use": "PreToolUse",
  "post-tool-use": "PostToolUse",
  stop: "Stop",
  "session-checkpoint": "Stop",
  "post-model-switch": "PostModelSwitch",
};

function isolatedEnv(): Record<string, string | undefined> {
  const home = mkdtempSync(join(tmpdir(), "rehydrate-bin-"));
  return { PATH: process.env.PATH, HOME: home, REHYDRATE_STATE_DIR: join(home, "state") };
}

for (const name of BINARIES) {
  test(`${name} --version prints the package version`, () => {
    const r = run(bin(name), ["--version"]);
    assert.equal(r.status, 0);
    assert.equal(r.stdout.trim(), VERSION);
  });

  test(`${name} --help explains usage and exits 0`, () => {
    const r = run(bin(name), ["--help"]);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /Usage:/);
    assert.match(r.stdout, new RegExp(name === "rehydrate" ? "rehydrate" : EVENT[name]));
  });
}

const GARBAGE = [
  "",
  "not json",
  "[1,2,3]",
  '{"session_id":42}',
  "{",
  "\u0000\u0001binary",
  '{"hook_event_name":"Nope"}',
];

for (const name of HOOKS) {
  test(`${name} exits 0 with no output on bad stdin`, () => {
    const env = isolatedEnv();
    for (const input of GARBAGE) {
      const r = run(bin(name), [], { stdin: input, env });
      assert.equal(r.status, 0, `input ${JSON.stringify(input)}`);
      assert.equal(r.stdout, "", `input ${JSON.stringify(input)}`);
    }
  });

  test(`${name} and "rehydrate ${name}" answer a captured payload alike, from the current and the oldest client`, () => {
    const payloads = [FIXTURES, FIXTURES_OLDEST].flatMap((set) =>
      readdirSync(join(set, "hook-inputs")).filter((f) => f.startsWith(EVENT[name])).map((f) =>
        join(set, "hook-inputs", f)
      )
    );
    assert.ok(payloads.length > 0, `no captured payload for ${EVENT[name]}`);
    for (const file of payloads) {
      const stdin = readFileSync(file, "utf8");
      const a = run(bin(name), [], { stdin, env: isolatedEnv() });
      const b = run(bin("rehydrate"), [name], { stdin, env: isolatedEnv() });
      assert.equal(a.status, 0, file);
      assert.equal(b.status, 0, file);
      assert.equal(a.stdout, b.stdout, file);
      if (a.stdout.trim().startsWith("{")) {
        const reply = JSON.parse(a.stdout);
        assert.equal(typeof reply, "object");
      }
    }
  });
}

test("rehydrate with an unknown command is a usage error: one line, a hint, exit 2", () => {
  const r = run(bin("rehydrate"), ["frobnicate"]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr, `rehydrate: unknown command "frobnicate"\nTry 'rehydrate --help'.\n`);
});
