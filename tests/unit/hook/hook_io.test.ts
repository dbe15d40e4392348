import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readStdin } from "../../../lib/hook/read_stdin.ts";
import { parseHookInput } from "../../../lib/hook/parse_hook_input.ts";
import { handleHook } from "../../../lib/hook/handle_hook.ts";
import type { HookReply } from "../../../lib/hook/hook_types.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "rehydrate-io-"));
const STOP = JSON.stringify({
  session_id: "abc-123",
  transcript_path: "",
  cwd: "/p",
  hook_event_name: "Stop",
  stop_hook_active: false,
});

function fdOf(content: string | Uint8Array): number {
  const p = join(tmp(), "in");
  writeFileSync(p, content);
  return openSync(p, "r");
}

describe("readStdin()", () => {
  test("readStdin() reads a descriptor to EOF across chunk boundaries, multi-byte characters intact", () => {
    const text = "é🙂".repeat(50_000); // > 64 KiB, characters split across reads
    const fd = fdOf(text);
    const r = readStdin({ fd });
    closeSync(fd);
    assert.deepEqual(r, { ok: true, text });
  });

  test("readStdin() refuses input over the cap", () => {
    const fd = fdOf("x".repeat(2000));
    const r = readStdin({ fd, maxBytes: 1000 });
    closeSync(fd);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error, "too_large");
  });

  test("readStdin() returns an empty string for empty input", () => {
    const fd = fdOf("");
    assert.deepEqual(readStdin({ fd }), { ok: true, text: "" });
    closeSync(fd);
  });
});

describe("parseHookInput()", () => {
  test("parseHookInput() accepts the captured payloads and trims a leading newline", () => {
    const r = parseHookInput("\n" + STOP + "\n", { event: "Stop" });
    assert.equal(r.error, null);
    assert.equal(r.value?.session_id, "abc-123");
  });

  const cases: Array<[string, string]> = [
    ["", "EMPTY"],
    ["   \n", "EMPTY"],
    ["{", "INVALID_JSON"],
    ["[]", "NOT_AN_OBJECT"],
    ["null", "NOT_AN_OBJECT"],
    ['"x"', "NOT_AN_OBJECT"],
    ['{"session_id":"s","transcript_path":"","cwd":"/"}', "MISSING_FIELD"],
    ['{"session_id":1,"transcript_path":"","cwd":"/","hook_event_name":"Stop"}', "WRONG_TYPE"],
    ['{"session_id":"s","transcript_path":null,"cwd":"/","hook_event_name":"Stop"}', "WRONG_TYPE"],
  ];
  for (const [text, code] of cases) {
    test(`parseHookInput() reports ${code} for ${JSON.stringify(text)}`, () => {
      assert.equal(parseHookInput(text).error?.code, code);
    });
  }

  test("parseHookInput() reports WRONG_EVENT for another event's input", () => {
    assert.equal(parseHookInput(STOP, { event: "PreCompact" }).error?.code, "WRONG_EVENT");
  });
});

describe("handleHook()", () => {
  const env = () => ({ REHYDRATE_STATE_DIR: join(tmp(), "state"), REHYDRATE_DEBUG: "1", HOME: tmp() });

  test("handleHook() prints a JSON reply and exits 0", async () => {
    const out = await handleHook("Stop", () => ({ json: { decision: "block", reason: "r" } }), STOP, { env: env() });
    assert.deepEqual(out, { stdout: '{"decision":"block","reason":"r"}', exitCode: 0 });
  });

  test("handleHook() passes plain stdout through (PreCompact's summarizer text)", async () => {
    const out = await handleHook("Stop", () => ({ stdout: "keep the task" }), STOP, { env: env() });
    assert.deepEqual(out, { stdout: "keep the task", exitCode: 0 });
  });

  test("handleHook() never prints an invisible or bidirectional control character raw", () => {
    const plain = handleHook("Stop", () => ({ stdout: "keep src/\u202Egnp.ts\u2066 a\u200Bb\n" }), STOP, {
      env: env(),
    });
    assert.deepEqual(plain, { stdout: "keep src/\\u202Egnp.ts\\u2066 a\\u200Bb\n", exitCode: 0 });
    const json = handleHook("Stop", () => ({ json: { decision: "block", reason: "re-read a\u202Eb.ts" } }), STOP, {
      env: env(),
    });
    assert.equal(json.stdout, '{"decision":"block","reason":"re-read a\\\\u202Eb.ts"}');
    assert.equal(JSON.parse(json.stdout).reason, "re-read a\\u202Eb.ts", "decoded, the reason shows the escape");
  });

  test("handleHook() exits 2 only when the handler asks for a block", async () => {
    const out = await handleHook("Stop", () => ({ stdout: "", exitCode: 2 }), STOP, { env: env() });
    assert.equal(out.exitCode, 2);
  });

  test("handleHook() fails open when the handler throws, and logs why", async () => {
    const e = env();
    const out = await handleHook(
      "Stop",
      () => {
        throw new Error("boom sk-ant-api03-" + "a".repeat(93) + "AA");
      },
      STOP,
      { env: e },
    );
    assert.deepEqual(out, { stdout: "", exitCode: 0 });
    const log = readFileSync(join(e.REHYDRATE_STATE_DIR, "debug.log"), "utf8");
    assert.match(log, /Stop: failed open: Error: boom/);
    assert.doesNotMatch(log, /aaaaaaaaaaaaaaaaaaaa/, "secrets are redacted from the log");
  });

  test("handleHook() fails open on a handler that answers with a Promise (handlers are synchronous)", () => {
    const out = handleHook("Stop", () => Promise.resolve({ stdout: "late" }) as unknown as HookReply, STOP, {
      env: env(),
    });
    assert.deepEqual(out, { stdout: "", exitCode: 0 });
  });

  test("handleHook() does not run the handler for input of another event", async () => {
    let ran = false;
    const out = await handleHook(
      "PreCompact",
      () => {
        ran = true;
        return { stdout: "x" };
      },
      STOP,
      { env: env() },
    );
    assert.equal(ran, false);
    assert.deepEqual(out, { stdout: "", exitCode: 0 });
  });

  test("handleHook() drops a reply whose hookEventName names another event", async () => {
    const out = await handleHook(
      "Stop",
      () => ({ json: { hookSpecificOutput: { hookEventName: "PreToolUse" } } }),
      STOP,
      { env: env() },
    );
    assert.deepEqual(out, { stdout: "", exitCode: 0 });
  });

  test("handleHook() resolves the project from CLAUDE_PROJECT_DIR, else the input's cwd", async () => {
    let seen = "";
    await handleHook(
      "Stop",
      (ctx) => {
        seen = ctx.projectDir;
        return null;
      },
      STOP,
      { env: { ...env(), CLAUDE_PROJECT_DIR: "/proj" } },
    );
    assert.equal(seen, "/proj");
    await handleHook(
      "Stop",
      (ctx) => {
        seen = ctx.projectDir;
        return null;
      },
      STOP,
      { env: env() },
    );
    assert.equal(seen, "/p");
  });

  test("handleHook() writes no debug log when debugging is off", async () => {
    const e = { ...env(), REHYDRATE_DEBUG: "0" };
    await handleHook(
      "Stop",
      () => {
        throw new Error("quiet");
      },
      STOP,
      { env: e },
    );
    assert.throws(() => readFileSync(join(e.REHYDRATE_STATE_DIR, "debug.log")));
  });

  test("handleHook() runs no handler, prints nothing and writes nothing when the project's config says enabled: false", () => {
    const project = tmp();
    mkdirSync(join(project, ".claude"));
    writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ enabled: false }));
    const e = { ...env(), CLAUDE_PROJECT_DIR: project, REHYDRATE_DEBUG: "1", HOME: tmp() };
    let ran = false;
    const out = handleHook(
      "Stop",
      (ctx) => {
        ran = true;
        ctx.log("ran");
        return { stdout: "x" };
      },
      STOP,
      { env: e, homeDir: e.HOME },
    );
    assert.equal(ran, false);
    assert.deepEqual(out, { stdout: "", exitCode: 0 });
    assert.equal(existsSync(e.REHYDRATE_STATE_DIR), false, "not even the state directory is created");
    writeFileSync(join(project, ".claude", "rehydrate.json"), JSON.stringify({ enabled: true }));
    handleHook("Stop", () => (ran = true, null), STOP, { env: e, homeDir: e.HOME });
    assert.equal(ran, true);
  });
});
